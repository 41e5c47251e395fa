import type { MessageParams } from '@shared/content/model';
import type { Queryable } from '@infra/db';
import type { UserEvents } from '@server/platform/user-events';
import type { SecurityKind, SecurityMessages } from '../auth/auth.context';
import { announceMessage, writeSystemMessage, type MessageAnnouncement } from './system-messages';

/**
 * Writes a security message (a new device, a password, two-factor, a withdrawal account, a
 * withdrawal) inside the caller's transaction, with the user's anti-phishing phrase as it is now:
 * a message that shows the phrase came from here. Announce the answer after commit.
 */
export async function securityMessage(
  tx: Queryable,
  userId: number,
  kind: SecurityKind,
  params: MessageParams = {},
): Promise<MessageAnnouncement> {
  const { rows } = await tx.query<{ anti_phishing: string | null }>(
    'SELECT anti_phishing FROM users WHERE id = $1',
    [userId],
  );
  const phrase = rows[0]?.anti_phishing;
  return writeSystemMessage(tx, userId, kind, phrase ? { ...params, phrase } : params);
}

/** The auth module's writer of security messages (it stands below this module, so it is given one). */
export function securityMessages(userEvents: UserEvents): SecurityMessages {
  return {
    async write(tx, userId, kind, params) {
      const written = await securityMessage(tx, userId, kind, params);
      return () => announceMessage(userEvents, written);
    },
  };
}
