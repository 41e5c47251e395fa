import { randomBytes } from 'node:crypto';
import type { PasswordResetBody } from '@shared/accounts/model';
import { AppError, badRequest, conflict } from '@server/platform/http/errors';
import { dummyHash, hashPassword, verifyPassword } from '@server/platform/passwords';
import { signInGate } from './auth.sign-in';
import * as users from './auth.repo';
import * as repo from './two-factor.repo';
import type { AuthContext } from './auth.context';
import { hashToken } from './auth.sessions';
import { deviceName } from './device-name';
import { codeChecks, codeRequired, codeWrong } from './two-factor.codes';
import { cancelResetOnSignIn } from './two-factor.reset';

/**
 * The steps of signing in that two-factor adds (DECISIONS.md, Account security): the device step
 * after a right password, and the reset of a forgotten password with a code.
 */
export function signInSteps({ db, limiters, sessions, messages }: AuthContext) {
  const { codeRight, throttled } = codeChecks(db, limiters);
  return {
    /**
     * Sign-in's device step, once the password was right. A device that signed in before (the
     * token it keeps) goes on. Else, with two-factor on, a right code is needed (401
     * TWO_FACTOR_REQUIRED, 401 TWO_FACTOR_CODE_WRONG); then the device is recorded, its token
     * returned to keep, and, unless it is the user's first device, the user gets a message.
     */
    async deviceStep(
      userId: number,
      input: { code?: string; device?: string },
      seen: { pair: string; userAgent: string | null },
    ): Promise<{ token?: string; deviceHash: string }> {
      if (input.device) {
        const known = hashToken(input.device);
        if (await repo.deviceTrusted(db, userId, known)) return { deviceHash: known };
      }
      const row = await repo.twoFactorOf(db, userId);
      if (row?.enabled) {
        if (!input.code) throw codeRequired(401);
        const code = input.code;
        if (!(await throttled(seen.pair, userId, () => codeRight(userId, row.secret, code))))
          throw codeWrong(401);
        await cancelResetOnSignIn(db, userId);
      }
      const token = randomBytes(32).toString('base64url');
      const deviceHash = hashToken(token);
      const message = await db.transaction(async (tx) => {
        const before = await repo.hasDevices(tx, userId);
        await repo.trustDevice(tx, userId, deviceHash);
        return before
          ? messages.write(tx, userId, 'security_sign_in', { device: deviceName(seen.userAgent) })
          : null;
      });
      if (message) message();
      return { token, deviceHash };
    },

    /**
     * Resets a forgotten login password without support: the transaction password and a code
     * (or a recovery code), through the sign-in throttles. 401 BAD_CREDENTIALS for an unknown
     * account or a wrong transaction password (the same answer, after the same work); 409
     * TWO_FACTOR_OFF for an account without two-factor (its reset goes through support); 401
     * TWO_FACTOR_CODE_WRONG. Every session ends, and the user gets a message.
     */
    async resetPassword(input: PasswordResetBody, ip: string): Promise<void> {
      if (input.newPassword !== input.confirmPassword)
        throw badRequest('PASSWORD_MISMATCH', 'Passwords do not match', 'confirmPassword');
      const { pair, passed } = await signInGate(limiters, input.account, ip);
      const user = await users.userByAccount(db, input.account);
      const right = await verifyPassword(
        user?.trade_password_hash ?? (await dummyHash()),
        input.tradePassword,
      );
      if (!user || !right) throw new AppError(401, 'BAD_CREDENTIALS', 'Wrong account or password');
      const row = await repo.twoFactorOf(db, user.id);
      if (!row?.enabled)
        throw conflict('TWO_FACTOR_OFF', 'Without two-factor sign-in, customer support resets it');
      const code = input.code;
      if (!(await throttled(pair, user.id, () => codeRight(user.id, row.secret, code))))
        throw codeWrong(401);
      await cancelResetOnSignIn(db, user.id);
      const hash = await hashPassword(input.newPassword);
      const { ended, message } = await db.transaction(async (tx) => {
        await users.updatePasswordHash(tx, user.id, 'password_hash', hash);
        return {
          ended: await users.revokeAllSessions(tx, user.id),
          message: await messages.write(tx, user.id, 'security_password', { which: 'login' }),
        };
      });
      sessions.endSessions(ended, 'password_changed');
      message();
      await passed();
    },
  };
}
