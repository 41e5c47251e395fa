import { createHash } from 'node:crypto';
import { notFound } from '@server/platform/http/errors';
import { grouped } from '@server/platform/grouped';
import type { SessionInfo } from '@server/platform/http/auth';
import * as repo from './auth.repo';
import type { AuthContext } from './auth.context';
import { deviceName } from './device-name';

export const SESSION_TTL_MS = 30 * 86_400_000;
/** Sliding expiry is written at most this often per session, not on every request. */
const TOUCH_EVERY_MS = 3_600_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Sessions once signed in: checked on each request, listed and ended. */
export function userSessions({ db, sessions }: AuthContext) {
  /**
   * A session by its token's hash, read when the request asks: lookups that arrive while the
   * database is busy share one statement (platform/grouped.ts), each still reading after it
   * arrived, so a session revoked before a request is refused to it.
   */
  const liveSession = grouped(async (hashes: readonly string[]) => {
    const found = await repo.liveSessions(db, hashes);
    return hashes.map((h) => ({ value: found.get(h) ?? null }));
  });

  return {
    /** Ends the session, and then its sockets (other tabs of the same login included). */
    async logout(session: SessionInfo): Promise<void> {
      await repo.revokeSession(db, session.tokenHash);
      sessions.endSessions([session.tokenHash], 'logout');
    },

    /** The session of a bearer token, or null; extends a session in use (sliding expiry). */
    async authenticate(token: string): Promise<SessionInfo | null> {
      if (!token || token.length > 100) return null;
      const tokenHash = hashToken(token);
      const s = await liveSession(tokenHash);
      if (!s) return null;
      if (Date.now() - s.last_seen_at.getTime() > TOUCH_EVERY_MS)
        await repo.touchSession(db, tokenHash, SESSION_TTL_MS);
      return { userId: s.user_id, tokenHash, frozen: s.frozen };
    },

    /** The user's live sessions, named by the first 12 characters of their token hash. */
    async sessionsOf(userId: number) {
      return (await repo.liveSessionsOf(db, userId)).map((s) => ({
        id: s.token_hash.slice(0, 12),
        device: deviceName(s.user_agent),
        address: s.ip,
        createdAt: s.created_at.getTime(),
        lastSeenAt: s.last_seen_at.getTime(),
        expiresAt: s.expires_at.getTime(),
      }));
    },

    /** Ends every session of the user, and their sockets; how many ended. */
    async revokeSessions(userId: number): Promise<number> {
      if (!(await repo.opsUserById(db, userId))) throw notFound('No such user');
      const revoked = await repo.revokeAllSessions(db, userId);
      sessions.endSessions(revoked, 'revoked');
      return revoked.length;
    },
  };
}
