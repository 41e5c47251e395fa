import type { ChangePasswordBody } from '@shared/accounts/model';
import { AppError, badRequest, unauthenticated } from '@server/platform/http/errors';
import { hashPassword, verifyPassword } from '@server/platform/passwords';
import type { SessionInfo } from '@server/platform/http/auth';
import * as repo from './auth.repo';
import { tooManyAttempts, type AuthContext } from './auth.context';

/** The login and transaction passwords of a signed-in user: changed, and confirmed. */
export function passwords(
  { db, limiters, sessions, messages }: AuthContext,
  /** With two-factor on, a password change takes a code too (auth.two-factor.ts). */
  requireSecondFactor: (userId: number, code: string | undefined) => Promise<void>,
) {
  /**
   * Checks a password the signed-in user typed against `hash`, through the confirmation limiter:
   * guesses sent at once run at most its limit of verifications, while right passwords sent at
   * once all get checked (they wait for the checks under way instead of being refused). Past the
   * limit: 429, whatever the password.
   */
  const confirmPassword = async (userId: number, hash: string, plain: string) => {
    const ok = await limiters.confirm.run(String(userId), () => verifyPassword(hash, plain));
    if (ok === null) throw tooManyAttempts();
    return ok;
  };

  return {
    /**
     * Changes the login or transaction password and ends the user's other sessions, their sockets
     * too once the change is committed; this session and its sockets stay.
     */
    async changePassword(
      session: SessionInfo,
      kind: 'login' | 'trade',
      input: ChangePasswordBody,
    ): Promise<void> {
      if (input.newPassword !== input.confirmPassword)
        throw badRequest(
          kind === 'login' ? 'PASSWORD_MISMATCH' : 'TRADE_PASSWORD_MISMATCH',
          'Passwords do not match',
          'confirmPassword',
        );
      const u = await repo.userById(db, session.userId);
      if (!u) throw unauthenticated();
      const current = kind === 'login' ? u.password_hash : u.trade_password_hash;
      if (!(await confirmPassword(u.id, current, input.oldPassword)))
        throw new AppError(
          403,
          kind === 'login' ? 'WRONG_PASSWORD' : 'WRONG_TRADE_PASSWORD',
          'The old password is wrong',
          'oldPassword',
        );
      await requireSecondFactor(u.id, input.code);
      const hash = await hashPassword(input.newPassword);
      const { revoked, message } = await db.transaction(async (tx) => {
        await repo.updatePasswordHash(
          tx,
          u.id,
          kind === 'login' ? 'password_hash' : 'trade_password_hash',
          hash,
        );
        return {
          revoked: await repo.revokeOtherSessions(tx, u.id, session.tokenHash),
          message: await messages.write(tx, u.id, 'security_password', { which: kind }),
        };
      });
      // The ended sessions' sockets first: they hear why they end, and the message goes only to
      // the sockets that stay.
      sessions.endSessions(
        revoked,
        kind === 'login' ? 'password_changed' : 'trade_password_changed',
      );
      message();
    },

    /** For money movements that need the transaction password; throttled (`confirm`). */
    async verifyTradePassword(userId: number, plain: string): Promise<boolean> {
      const u = await repo.userById(db, userId);
      return !!u && (await confirmPassword(u.id, u.trade_password_hash, plain));
    },
  };
}
