import type { AntiPhishing, SecuritySession } from '@shared/security/model';
import { AppError, notFound } from '@server/platform/http/errors';
import type { SessionInfo } from '@server/platform/http/auth';
import { addressKey } from '@server/platform/rate-limit';
import * as repo from './auth.repo';
import * as devices from './two-factor.repo';
import { deviceName } from './device-name';
import { hashToken } from './auth.sessions';
import type { AuthContext } from './auth.context';

/**
 * The security page's sessions and anti-phishing phrase (DECISIONS.md, Account security). A
 * session is named by the first 12 characters of its token's hash; ending one ends its sockets on
 * every gateway at once (the logout path).
 */
export function accountSecurity(
  { db, limiters, sessions, places }: AuthContext,
  verifyTradePassword: (userId: number, plain: string) => Promise<boolean>,
) {
  return {
    async securitySessions(session: SessionInfo): Promise<{ items: SecuritySession[] }> {
      const rows = await repo.liveSessionsOf(db, session.userId);
      return {
        items: rows.map((s) => ({
          id: s.token_hash.slice(0, 12),
          device: deviceName(s.user_agent),
          place: places.place(s.ip),
          createdAt: s.created_at.getTime(),
          lastSeenAt: s.last_seen_at.getTime(),
          current: s.token_hash === session.tokenHash,
        })),
      };
    },

    /** Signs one of the user's sessions out (404 for an unknown one or someone else's). */
    async endSession(session: SessionInfo, id: string): Promise<void> {
      const ended = await repo.revokeSessionById(db, session.userId, id);
      if (!ended) throw notFound('No such session');
      sessions.endSessions([ended], 'logout');
    },

    /** Signs every other session of the user out; how many. */
    async endOtherSessions(session: SessionInfo): Promise<{ ended: number }> {
      const ended = await repo.revokeOtherSessions(db, session.userId, session.tokenHash);
      sessions.endSessions(ended, 'logout');
      return { ended: ended.length };
    },

    async antiPhishing(userId: number): Promise<AntiPhishing> {
      return { phrase: await repo.antiPhishingOf(db, userId) };
    },

    /** Sets or removes the phrase; taken with the transaction password. */
    async setAntiPhishing(
      userId: number,
      body: { phrase: string | null; tradePassword: string },
    ): Promise<AntiPhishing> {
      if (!(await verifyTradePassword(userId, body.tradePassword)))
        throw new AppError(
          403,
          'WRONG_TRADE_PASSWORD',
          'The transaction password is wrong',
          'tradePassword',
        );
      await repo.setAntiPhishing(db, userId, body.phrase);
      return { phrase: body.phrase };
    },

    /**
     * The phrase for the sign-in page, told only to a device that signed in to the account
     * before: a copy of the page elsewhere, which cannot hold that device's token, learns
     * nothing. The same answer (null) for an unknown account; throttled per address.
     */
    async signInPhrase(input: { account: string; device: string }, ip: string) {
      if (!(await limiters.registerCheck.hit(addressKey(ip))))
        throw new AppError(429, 'RATE_LIMITED', 'Too many requests; try again later');
      const user = await repo.userByAccount(db, input.account);
      if (!user || !(await devices.deviceTrusted(db, user.id, hashToken(input.device))))
        return { phrase: null };
      return { phrase: await repo.antiPhishingOf(db, user.id) };
    },
  };
}
