import { randomInt } from 'node:crypto';
import { verify as verifyTotp } from 'otplib';
import { RECOVERY_CODE } from '@shared/security/model';
import type { Db, Queryable } from '@infra/db';
import { AppError } from '@server/platform/http/errors';
import { sha256 } from '@server/platform/http/auth';
import * as repo from './two-factor.repo';
import { tooManyAttempts, type AuthLimiters } from './auth.context';

/** TOTP's time step; a code is accepted one step either side of now (a phone's clock drifts). */
const TOTP_STEP_S = 30;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const newRecoveryCode = () => {
  const c = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${c.slice(0, 5)}-${c.slice(5)}`;
};
/** A recovery code's hash, whatever its case and whether it was typed with its dash. */
export const recoveryHash = (code: string) => sha256(code.toUpperCase().replace('-', ''));

export const codeWrong = (status: 400 | 401 = 400) =>
  new AppError(status, 'TWO_FACTOR_CODE_WRONG', 'The code is wrong or was used already', 'code');
export const codeRequired = (status: 401 | 403 = 403) =>
  new AppError(status, 'TWO_FACTOR_REQUIRED', 'Enter the code from your authenticator app', 'code');

/**
 * The checks of a two-factor code (DECISIONS.md, Account security). Every check passes two
 * throttles: the place (the (address, user) pair at sign-in, the user in a session), then the
 * user over a day, so a stranger guessing from one place never locks the owner out from another.
 */
export function codeChecks(db: Db, limiters: Pick<AuthLimiters, 'twoFactor' | 'twoFactorDaily'>) {
  /** A six-digit code (each time step once) or an unused recovery code; not throttled here. */
  const codeRight = async (
    userId: number,
    secret: string,
    code: string,
    recovery = true,
    q: Queryable = db,
  ) => {
    if (/^\d{6}$/.test(code)) {
      // One instant for the check and its step, so a step boundary between them changes nothing.
      const epoch = Math.floor(Date.now() / 1000);
      const result = await verifyTotp({ secret, token: code, epoch, epochTolerance: TOTP_STEP_S });
      if (!result.valid) return false;
      const step = Math.floor(epoch / TOTP_STEP_S) + result.delta;
      return repo.useStep(q, userId, step);
    }
    return recovery && RECOVERY_CODE.test(code)
      ? repo.useRecoveryCode(q, userId, recoveryHash(code))
      : false;
  };

  /** Runs a code check through the throttles: `place` is the pair at sign-in, else the user. */
  const throttled = async (place: string, userId: number, check: () => Promise<boolean>) => {
    const perUser = async () => {
      const ok = await limiters.twoFactorDaily.run(String(userId), check);
      if (ok === null) throw tooManyAttempts();
      return ok;
    };
    const ok = await limiters.twoFactor.run(place, perUser);
    if (ok === null) throw tooManyAttempts();
    return ok;
  };

  return { codeRight, throttled };
}
