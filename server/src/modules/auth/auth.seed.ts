import type { Db } from '@infra/db';
import { setMetaIfAbsent } from '@infra/db/meta.repo';
import { insertInviteCode } from './auth.repo';

/**
 * An embedded first start's invitation code, WELCOME, so the first accounts can register.
 * Once per database (an app_meta flag): an operator who deletes it later does not get it back.
 * True when it was created now.
 */
export async function seedWelcomeInviteOnce(db: Db): Promise<boolean> {
  return (
    (await setMetaIfAbsent(db, 'seeded_welcome_invite', 'yes')) === 'yes' &&
    (await insertInviteCode(db, 'WELCOME', null))
  );
}
