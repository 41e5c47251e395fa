import type { WithdrawalAccountBody, WithdrawalBody } from '@shared/wallet/requests';
import { comparableName, withoutInvisible } from '@shared/text';
import {
  withdrawalArrival,
  withdrawalFee,
  type OpsWithdrawal,
  type Withdrawal,
  type WithdrawalAccount,
  type WithdrawalQuote,
  type WithdrawalStatus,
} from '@shared/wallet/model';
import type { Config } from '@server/config';
import type { Db, Queryable } from '@infra/db';
import { pgErrorCode } from '@infra/db/db';
import { AppError, badRequest, conflict, notFound } from '@server/platform/http/errors';
import { idempotent, storedAnswer, type Answer } from '@server/platform/idempotency';
import { toPage, type PageRequest } from '@server/platform/paging';
import type { UserEvents } from '@server/platform/user-events';
import type { AuthService } from '../auth/auth.service';
import {
  announceMessage,
  writeSystemMessage,
  type MessageAnnouncement,
} from '../content/system-messages';
import { transfer, type Leg } from '../ledger/ledger';
import type { AccountSummaries } from './summary';
import {
  presentOpsWithdrawal,
  presentWithdrawal,
  presentWithdrawalAccount,
} from './wallet.presenters';
import * as repo from './withdrawal.repo';
import type { IdentityChecks } from '../kyc/identity';
import type { Clock } from '@server/platform/clock';
import { securityMessage } from '../content/security-messages';

export interface WithdrawalDeps {
  db: Db;
  config: Pick<
    Config,
    | 'WITHDRAW_MIN'
    | 'WITHDRAW_MAX'
    | 'WITHDRAW_REQUIRES_KYC'
    | 'WITHDRAW_FEE_BPS'
    | 'WITHDRAW_FEE_MIN'
    | 'WITHDRAWAL_ACCOUNT_HOLD_HOURS'
  >;
  /** The platform clock (movable under TEST_CLOCK=1): when a new account's hold ends. */
  clock: Clock;
  auth: Pick<AuthService, 'verifyTradePassword' | 'requireSecondFactor'>;
  userEvents: UserEvents;
  summaries: Pick<AccountSummaries, 'publish'>;
  /** The kyc module's reader: WITHDRAW_REQUIRES_KYC asks it whether the identity is verified. */
  identity: Pick<IdentityChecks, 'verified'>;
}

const wrongTradePassword = () =>
  new AppError(403, 'WRONG_TRADE_PASSWORD', 'Wrong transaction password', 'tradePassword');
const kycRequired = (what: string) =>
  new AppError(403, 'KYC_REQUIRED', `${what} needs a verified identity`);

const hold = (userId: number) => ({ user: userId, kind: 'withdraw_hold' as const });
const available = (userId: number) => ({ user: userId, kind: 'available' as const });
const feeAccount = { house: 'house_fees' as const };

/** 400 AMOUNT_OUT_OF_RANGE outside the bounds; the fee is then always below the amount. */
function checkAmount(config: WithdrawalDeps['config'], amount: number) {
  if (amount < config.WITHDRAW_MIN || amount > config.WITHDRAW_MAX)
    throw badRequest(
      'AMOUNT_OUT_OF_RANGE',
      `A withdrawal is between ${config.WITHDRAW_MIN} and ${config.WITHDRAW_MAX} minor units`,
      'amount',
    );
  return withdrawalFee(amount, { bps: config.WITHDRAW_FEE_BPS, min: config.WITHDRAW_FEE_MIN });
}

/**
 * The verified identity's name, without the invisible characters a name could hold before they
 * were refused: the form sends it back as the holder, and a holder may not hold them.
 */
async function verifiedName(db: Db, userId: number) {
  const name = await repo.verifiedName(db, userId);
  return name === null ? null : withoutInvisible(name);
}

/**
 * The name a bank account is bound in (DECISIONS.md, Privacy and names): money leaves only to an
 * account in the user's own name. With a verified identity the typed holder must be its name
 * (compared as `comparableName`: NFC, spaces, case), and the identity's own spelling is kept;
 * without one, 403 KYC_REQUIRED when withdrawals need it (the name could not be checked, and a
 * withdrawal would need the identity anyway); else, as before, the name as typed. Checked
 * before the transaction password, so a name typed wrong costs no password attempt.
 */
async function bankHolder(
  { db, config }: WithdrawalDeps,
  userId: number,
  typed: string,
): Promise<string> {
  const verified = await verifiedName(db, userId);
  if (verified === null) {
    if (config.WITHDRAW_REQUIRES_KYC) throw kycRequired('Binding a bank account');
    return typed;
  }
  if (comparableName(typed) !== comparableName(verified))
    throw badRequest(
      'HOLDER_NAME_MISMATCH',
      "The holder name must be the verified identity's name",
      'holderName',
    );
  return verified;
}

/** The accounts money leaves to: a bank card or a coin address, bound once. */
function withdrawalAccounts(deps: WithdrawalDeps) {
  const { db, config, auth, userEvents } = deps;
  return {
    async accounts(userId: number): Promise<WithdrawalAccount[]> {
      return (await repo.userWithdrawalAccounts(db, userId)).map(presentWithdrawalAccount);
    },

    /**
     * The holder name a bank account is bound in: the verified identity's, when there is one; and
     * whether one must be verified before a bank account can be bound at all.
     */
    async holder(userId: number): Promise<{ holderName: string | null; verifyFirst: boolean }> {
      const holderName = await verifiedName(db, userId);
      return { holderName, verifyFirst: holderName === null && config.WITHDRAW_REQUIRES_KYC };
    },

    async account(userId: number, id: number): Promise<WithdrawalAccount> {
      const a = await repo.userWithdrawalAccount(db, userId, id);
      if (!a) throw notFound('No such withdrawal account');
      return presentWithdrawalAccount(a);
    },

    /**
     * Binds a bank card or a coin address; once bound, changes go through customer service.
     * It decides where money leaves to, so it takes the transaction password, like a withdrawal
     * (403, and the same throttle): a stolen session alone cannot send the money elsewhere.
     */
    async bind(userId: number, body: WithdrawalAccountBody): Promise<WithdrawalAccount> {
      const holder = body.type === 'bank' ? await bankHolder(deps, userId, body.holderName) : null;
      if (!(await auth.verifyTradePassword(userId, body.tradePassword))) throw wrongTradePassword();
      await auth.requireSecondFactor(userId, body.code);
      const now = deps.clock.now();
      const usableAt = new Date(now + config.WITHDRAWAL_ACCOUNT_HOLD_HOURS * 3_600_000);
      try {
        const { row, message } = await db.transaction(async (tx) => {
          const row = await repo.insertWithdrawalAccount(tx, {
            user_id: userId,
            type: body.type,
            holder_name: holder,
            nationality: body.type === 'bank' ? body.nationality : null,
            bank_name: body.type === 'bank' ? body.bankName : null,
            branch: body.type === 'bank' ? (body.branch ?? null) : null,
            card_number: body.type === 'bank' ? body.cardNumber : null,
            bank_address: body.type === 'bank' ? (body.bankAddress ?? null) : null,
            network: body.type === 'coin' ? body.network : null,
            address: body.type === 'coin' ? body.address : null,
            usable_at: usableAt,
            created_at: new Date(now),
          });
          // The owner hears of every new destination for their money, wherever it was bound.
          return { row, message: await securityMessage(tx, userId, 'security_withdrawal_account') };
        });
        announceMessage(userEvents, message);
        return presentWithdrawalAccount(row);
      } catch (err) {
        if (pgErrorCode(err) === '23505')
          throw conflict(
            'ACCOUNT_ALREADY_BOUND',
            `A ${body.type === 'bank' ? 'bank card' : 'coin address'} is bound already; contact customer service to change it`,
            'type',
          );
        throw err;
      }
    },
  };
}

/** A user's withdrawals: quoted, asked for (the amount held at once), listed. */
function withdrawalRequests({
  db,
  config,
  auth,
  identity,
  summaries,
  clock,
  userEvents,
}: WithdrawalDeps) {
  return {
    /** What a withdrawal of `amount` to one of the user's accounts costs and pays (no writes). */
    async quote(userId: number, accountId: number, amount: number): Promise<WithdrawalQuote> {
      const account = await repo.userWithdrawalAccount(db, userId, accountId);
      if (!account) throw notFound('No such withdrawal account');
      const fee = checkAmount(config, amount);
      return {
        amount,
        fee,
        receive: amount - fee,
        arrival: withdrawalArrival[account.type],
      };
    },

    /**
     * Asks for a withdrawal. Checks, in order: the account is the user's (404), the amount is
     * within limits (400), the transaction password (403), the identity check when required (403).
     * Then the withdrawal row and the hold on the amount commit in one transaction; a balance
     * that is short refuses the whole of it (409 INSUFFICIENT_BALANCE).
     */
    async create(
      userId: number,
      body: WithdrawalBody,
      idempotencyKey: string | undefined,
    ): Promise<Answer<Withdrawal>> {
      const account = await repo.userWithdrawalAccount(db, userId, body.accountId);
      if (!account) throw notFound('No such withdrawal account');
      const fee = checkAmount(config, body.amount);
      if (!(await auth.verifyTradePassword(userId, body.tradePassword))) throw wrongTradePassword();
      // The password and the code are left out of the stored request hash: a hash of six digits
      // is no secret, and a retry carries the code its first attempt spent.
      const request = { accountId: body.accountId, amount: body.amount };
      // A retry of a withdrawal already made (same key, same request) gets its answer before the
      // code is checked: the first attempt spent that code.
      if (idempotencyKey) {
        const stored = await storedAnswer<Withdrawal>(db, { userId, key: idempotencyKey, request });
        if (stored) return stored;
      }
      if (account.usable_at.getTime() > clock.now())
        throw conflict(
          'ACCOUNT_ON_HOLD',
          `This account receives withdrawals from ${account.usable_at.toISOString()} (the hold on new accounts)`,
          'accountId',
        );
      if (config.WITHDRAW_REQUIRES_KYC && !(await identity.verified(userId)))
        throw kycRequired('A withdrawal');
      let message: MessageAnnouncement | undefined;
      const answer = await idempotent(db, { userId, key: idempotencyKey, request }, async (tx) => {
        // Last of the checks, so a refusal above spends no code; and inside the key's
        // transaction, so the same request sent twice at once waits on the key and replays the
        // first answer instead of finding its code already spent.
        await auth.requireSecondFactor(userId, body.code, tx);
        const id = await repo.insertWithdrawal(tx, {
          userId,
          accountId: body.accountId,
          amount: body.amount,
          fee,
        });
        // The fee goes to the house at once, the rest is held until review (DECISIONS.md).
        await transfer(tx, {
          kind: 'withdraw_hold',
          userId,
          ref: `withdrawal:${id}`,
          legs: [
            { account: available(userId), amount: -body.amount },
            { account: hold(userId), amount: body.amount - fee },
            { account: feeAccount, amount: fee },
          ],
        });
        // The owner hears of every withdrawal asked for, in the transaction that asks for it.
        message = await securityMessage(tx, userId, 'security_withdrawal', { amount: body.amount });
        return { status: 201, body: presentWithdrawal((await repo.withdrawalById(tx, id))!) };
      });
      if (!answer.replayed) await summaries.publish(userId);
      if (message) announceMessage(userEvents, message);
      return answer;
    },

    async list(userId: number, page: PageRequest) {
      return toPage(
        await repo.listWithdrawals(db, { ...page, userId }),
        page.limit,
        presentWithdrawal,
      );
    },
  };
}

const byId = async (tx: Queryable, id: number) =>
  presentOpsWithdrawal((await repo.withdrawalById(tx, id))!);

/**
 * Ends a pending withdrawal: its status and the ledger transfer out of withdraw_hold commit
 * together. Two reviews racing for one withdrawal: one wins, the other gets 409 INVALID_STATE.
 */
async function finishWithdrawal(
  { db, userEvents, summaries }: WithdrawalDeps,
  id: number,
  to: 'success' | 'failed',
  reason: string | null,
): Promise<OpsWithdrawal> {
  const { userId, answer, message } = await db.transaction(async (tx) => {
    const w = await repo.reviewWithdrawal(tx, id, to, reason);
    if (!w) {
      const status = await repo.withdrawalStatus(tx, id);
      throw status
        ? conflict('INVALID_STATE', `This withdrawal is already ${status}`)
        : notFound('No such withdrawal');
    }
    // The hold is the amount less the fee; a failed withdrawal gives the fee back too.
    const held = w.amount - w.fee;
    const legs: Leg[] =
      to === 'success'
        ? [
            { account: hold(w.user_id), amount: -held },
            { account: { house: 'world' }, amount: held },
          ]
        : [
            { account: hold(w.user_id), amount: -held },
            { account: feeAccount, amount: -w.fee },
            { account: available(w.user_id), amount: w.amount },
          ];
    await transfer(tx, {
      kind: to === 'success' ? 'withdraw_paid' : 'withdraw_release',
      userId: w.user_id,
      ref: `withdrawal:${id}`,
      legs,
    });
    const message = await writeSystemMessage(
      tx,
      w.user_id,
      to === 'success' ? 'withdrawal_succeeded' : 'withdrawal_failed',
      { amount: w.amount, ref: String(id), ...(reason ? { reason } : {}) },
    );
    return { userId: w.user_id, answer: await byId(tx, id), message };
  });
  announceMessage(userEvents, message);
  await summaries.publish(userId);
  return answer;
}

/** The operators' review queue: each pending withdrawal paid or returned. */
function withdrawalReviews(deps: WithdrawalDeps) {
  const { db } = deps;
  return {
    /** Pending items in the queue, or one user's (whether they have something under review). */
    pendingCount: (userId?: number) => repo.countPending(db, userId),

    async review(q: PageRequest & { status?: WithdrawalStatus }) {
      return toPage(await repo.listWithdrawals(db, q), q.limit, presentOpsWithdrawal);
    },

    /** Marks the withdrawal paid: the held amount leaves the platform. */
    approve: (id: number) => finishWithdrawal(deps, id, 'success', null),

    /** Marks it failed: the held amount returns to the available balance; the reason is kept. */
    reject: (id: number, reason: string) => finishWithdrawal(deps, id, 'failed', reason),
  };
}

/** Withdrawal accounts and withdrawals: the amount is held at once, an operator pays or returns it. */
export function createWithdrawalService(deps: WithdrawalDeps) {
  return {
    ...withdrawalAccounts(deps),
    ...withdrawalRequests(deps),
    ...withdrawalReviews(deps),
  };
}
