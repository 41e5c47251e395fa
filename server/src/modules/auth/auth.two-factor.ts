import { generateSecret, generateURI } from 'otplib';
import { RECOVERY_CODES } from '@shared/security/model';
import type { RecoveryCodes, TwoFactorEnrolment, TwoFactorState } from '@shared/security/model';
import { AppError, conflict, unauthenticated } from '@server/platform/http/errors';
import type { SessionInfo } from '@server/platform/http/auth';
import type { Queryable } from '@infra/db';
import * as users from './auth.repo';
import * as repo from './two-factor.repo';
import type { AuthContext } from './auth.context';
import {
  codeChecks,
  codeRequired,
  codeWrong,
  newRecoveryCode,
  recoveryHash,
} from './two-factor.codes';

/** The issuer an authenticator app shows beside the account. */
const ISSUER = 'TradeApp';

/**
 * Two-factor sign-in in a session (DECISIONS.md, Account security): enrolment, confirmation,
 * the code asked for binding a withdrawal account, each withdrawal and a password change, and
 * turning it off. Sign-in's device step and the reset are in auth.sign-in-steps.ts.
 */
export function twoFactor(
  { db, limiters, messages }: AuthContext,
  verifyTradePassword: (userId: number, plain: string) => Promise<boolean>,
) {
  const { codeRight, throttled } = codeChecks(db, limiters);

  return {
    async twoFactorState(userId: number): Promise<TwoFactorState> {
      const row = await repo.twoFactorOf(db, userId);
      return {
        enabled: row?.enabled ?? false,
        pending: row !== null && !row.enabled,
        recoveryCodesLeft: row?.enabled ? await repo.recoveryCodesLeft(db, userId) : 0,
      };
    },

    /** A new secret, pending until a code confirms it; taken with the transaction password. */
    async enrolTwoFactor(userId: number, tradePassword: string): Promise<TwoFactorEnrolment> {
      const user = await users.userById(db, userId);
      if (!user) throw unauthenticated();
      if (!(await verifyTradePassword(userId, tradePassword)))
        throw new AppError(
          403,
          'WRONG_TRADE_PASSWORD',
          'The transaction password is wrong',
          'tradePassword',
        );
      const secret = generateSecret();
      if (!(await repo.startEnrolment(db, userId, secret)))
        throw conflict('TWO_FACTOR_ON', 'Two-factor sign-in is on already');
      return { secret, otpauthUri: generateURI({ issuer: ISSUER, label: user.account, secret }) };
    },

    /**
     * Turns it on with a first six-digit code: ten recovery codes, shown this once. Every device
     * but this session's is forgotten: each must sign in with a code from now on.
     */
    async confirmTwoFactor(session: SessionInfo, code: string): Promise<RecoveryCodes> {
      const { userId } = session;
      const row = await repo.twoFactorOf(db, userId);
      if (!row) throw conflict('TWO_FACTOR_OFF', 'Start two-factor sign-in first');
      if (row.enabled) throw conflict('TWO_FACTOR_ON', 'Two-factor sign-in is on already');
      const right = await throttled(`user ${userId}`, userId, () =>
        codeRight(userId, row.secret, code, false),
      );
      if (!right) throw codeWrong();
      const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
      const message = await db.transaction(async (tx) => {
        if (!(await repo.enable(tx, userId, codes.map(recoveryHash)))) return null;
        await repo.forgetOtherDevices(
          tx,
          userId,
          await users.deviceOfSession(tx, session.tokenHash),
        );
        return messages.write(tx, userId, 'security_two_factor_on');
      });
      if (!message) throw conflict('TWO_FACTOR_ON', 'Two-factor sign-in is on already');
      message();
      return { codes };
    },

    /** Turns it off with a code or a recovery code; its trusted devices are forgotten. */
    async disableTwoFactor(userId: number, code: string): Promise<void> {
      const row = await repo.twoFactorOf(db, userId);
      if (!row?.enabled) throw conflict('TWO_FACTOR_OFF', 'Two-factor sign-in is not on');
      const right = await throttled(`user ${userId}`, userId, () =>
        codeRight(userId, row.secret, code),
      );
      if (!right) throw codeWrong();
      const message = await db.transaction(async (tx) =>
        (await repo.disable(tx, userId))
          ? messages.write(tx, userId, 'security_two_factor_off')
          : null,
      );
      if (message) message();
    },

    /**
     * Where a signed-in user moves money or changes a password: with two-factor on, a right code
     * (403 TWO_FACTOR_REQUIRED without one, 400 TWO_FACTOR_CODE_WRONG for a wrong or used one).
     * `tx`: the caller's transaction, where the code is spent with the work it allows (on PGlite,
     * one connection, a check outside it would wait for it).
     */
    async requireSecondFactor(
      userId: number,
      code: string | undefined,
      tx: Queryable = db,
    ): Promise<void> {
      const row = await repo.twoFactorOf(tx, userId);
      if (!row?.enabled) return;
      if (!code) throw codeRequired();
      const right = await throttled(`user ${userId}`, userId, () =>
        codeRight(userId, row.secret, code, true, tx),
      );
      if (!right) throw codeWrong();
    },
  };
}
