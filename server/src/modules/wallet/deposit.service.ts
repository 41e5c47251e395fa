import type { DepositBody } from '@shared/wallet/requests';
import {
  depositLimits,
  networkOfChannel,
  normalizeTxId,
  txHashOf,
  type Deposit,
  type DepositChannelId,
  type DepositStatus,
  type OpsDeposit,
} from '@shared/wallet/model';
import type { Config } from '@server/config';
import type { Db, Queryable } from '@infra/db';
import { pgErrorCode } from '@infra/db/db';
import {
  AppError,
  RetryLater,
  badRequest,
  conflict,
  notFound,
  validationFailed,
} from '@server/platform/http/errors';
import { idempotent, type Answer } from '@server/platform/idempotency';
import { toPage, type PageRequest } from '@server/platform/paging';
import type { LimitSpec, Limiter } from '@server/platform/rate-limit';
import type { UserEvents } from '@server/platform/user-events';
import type { IncomingFile, UploadService } from '../uploads/upload.service';
import { announceMessage, writeSystemMessage } from '../content/system-messages';
import * as repo from './deposit.repo';
import type { ChainFacts, DepositRow } from './deposit.repo';
import type { DepositAddresses } from './chain/deposit-addresses';
import {
  ChainUnavailable,
  quantityOf,
  type ChainSources,
  type ChainTransfer,
} from './chain/source';
import { transfer } from '../ledger/ledger';
import { presentDeposit, presentOpsDeposit } from './wallet.presenters';
import type { AccountSummaries } from './summary';

/** `quantity × rate`, rounded down to the minor unit, exactly (the rate is a decimal string). */
export function convertAtRate(quantity: number, rate: string): number {
  const [whole, fraction = ''] = rate.split('.');
  const scale = 10n ** BigInt(fraction.length);
  return Number((BigInt(quantity) * BigInt(`${whole}${fraction}`)) / scale);
}

const txIdInUse = () =>
  conflict('TX_ID_IN_USE', 'This transaction is already recorded as a deposit', 'txId');
const alreadyResubmitted = () =>
  conflict('ALREADY_RESUBMITTED', 'This deposit was submitted again already', 'resubmitOf');

/** What a bank deposit will credit; refuses amounts with cents. */
function bankCredit(body: Extract<DepositBody, { channel: 'bank' }>): number {
  if (body.amount > 0 && body.amount % 100 !== 0)
    throw validationFailed('amount', 'amount: bank transfers are whole currency units');
  return body.amount;
}

/** Refuses a credit outside the deposit limits (400 AMOUNT_OUT_OF_RANGE). */
function checkRange(amount: number, field: string): void {
  if (amount < depositLimits.min || amount > depositLimits.max)
    throw badRequest(
      'AMOUNT_OUT_OF_RANGE',
      `A deposit credits between ${depositLimits.min} and ${depositLimits.max} minor units`,
      field,
    );
}

/**
 * Deposits a user may have under review at once: each holds a screenshot on disk and a place in
 * the operators' queue, so one user cannot flood either (409 TOO_MANY_PENDING_DEPOSITS).
 */
export const PENDING_DEPOSITS_MAX = 5;
/** Deposits a user may submit per window, whatever becomes of them (429 RATE_LIMITED). */
export const depositRateLimit: LimitSpec = { points: 10, durationSec: 3600 };

export interface DepositDeps {
  db: Db;
  config: Pick<Config, 'USDT_RATE' | 'ERC20_CONFIRMATIONS' | 'TRC20_CONFIRMATIONS'>;
  addresses: DepositAddresses;
  chainSources: ChainSources;
  uploads: UploadService;
  userEvents: UserEvents;
  summaries: Pick<AccountSummaries, 'publish'>;
  depositRate: Limiter;
  pendingDepositsMax?: number;
}

/** What the parts of the deposit service work with: its deps, the cap on pending ones settled. */
type DepositContext = DepositDeps & { pendingDepositsMax: number };

/** 404 for an unknown deposit, 409 INVALID_STATE for one already reviewed. */
async function notPending(tx: Queryable, id: number) {
  const status = await repo.depositStatus(tx, id);
  return status
    ? conflict('INVALID_STATE', `This deposit is already ${status}`)
    : notFound('No such deposit');
}

/**
 * A resubmission corrects one of the user's own rejected deposits, once: another user's id or
 * an unknown one is 404, one not rejected is 409 INVALID_STATE, one already resubmitted 409.
 */
async function checkResubmission(tx: Queryable, userId: number, id: number) {
  const original = await repo.lockResubmitted(tx, id);
  if (!original || original.user_id !== userId) throw notFound('No such deposit');
  if (original.status !== 'rejected')
    throw conflict(
      'INVALID_STATE',
      `Only a rejected deposit can be submitted again; this one is ${original.status}`,
      'resubmitOf',
    );
  if (original.resubmitted) throw alreadyResubmitted();
}

/**
 * The transfer a USDT claim names, read from the network's node: one of the transaction's USDT
 * transfers must have paid the claimant's own address (422 TX_NOT_FOUND when the node does not
 * know the transaction, 409 TX_NOT_TO_YOUR_ADDRESS otherwise, whoever it paid), and the claim
 * records the chain's facts and amount, not the user's (dust below a cent comes to 0: 400
 * AMOUNT_OUT_OF_RANGE). 503 CHAIN_UNAVAILABLE without a node.
 */
async function claimedTransfer(
  { db, config, addresses, chainSources }: DepositContext,
  userId: number,
  channel: Exclude<DepositChannelId, 'bank'>,
  txId: string,
): Promise<ChainFacts> {
  const confirmations = { ERC20: config.ERC20_CONFIRMATIONS, TRC20: config.TRC20_CONFIRMATIONS };
  const network = networkOfChannel(channel);
  const source = chainSources[network];
  const unavailable = () =>
    new RetryLater(
      503,
      'CHAIN_UNAVAILABLE',
      `The ${network} network cannot be checked now; a transfer to your address is credited when it is seen`,
      30_000,
    );
  if (!source) throw unavailable();
  let transfers: ChainTransfer[] | null;
  let head: number;
  try {
    [transfers, head] = await Promise.all([source.transfersOf(txHashOf(txId)), source.head()]);
  } catch (err) {
    if (err instanceof ChainUnavailable) throw unavailable();
    throw err;
  }
  if (!transfers)
    throw new AppError(
      422,
      'TX_NOT_FOUND',
      `No such transaction on the ${network} network`,
      'txId',
    );
  const own = (await addresses.of(db, userId))[network];
  const paid = transfers.find((t) => t.to === own);
  if (!paid)
    throw conflict(
      'TX_NOT_TO_YOUR_ADDRESS',
      'This transaction paid no USDT to your own deposit address',
      'txId',
    );
  return {
    ...paid,
    quantity: quantityOf(paid.value),
    confirmations: Math.max(0, head - paid.blockNumber + 1),
    required: confirmations[network],
  };
}

/**
 * A submission's own checks, before anything is stored: its amount and screenshot, the user's
 * rate, and for a USDT claim the transfer on chain. What the deposit will credit, and on what.
 */
async function checkSubmission(
  ctx: DepositContext,
  userId: number,
  body: DepositBody,
  screenshot: IncomingFile | undefined,
) {
  const bankAmount = body.channel === 'bank' ? bankCredit(body) : null;
  if (bankAmount !== null) checkRange(bankAmount, 'amount');
  // A bank transfer is shown by its screenshot; a USDT one by its transaction id, which
  // the schema has checked (the screenshot is then optional).
  if (!screenshot && body.channel === 'bank')
    throw validationFailed('screenshot', 'screenshot: the transfer screenshot is required');
  const txId = body.channel === 'bank' ? undefined : normalizeTxId(body.txId);
  if (!(await ctx.depositRate.hit(String(userId))))
    throw new AppError(429, 'RATE_LIMITED', 'Too many deposits; try again later');
  // A USDT claim names a transfer the chain shows paid the user's own address (so nobody
  // learns anything of another user's transfers from the answer).
  const chain =
    body.channel === 'bank' ? null : await claimedTransfer(ctx, userId, body.channel, txId!);
  const amount = chain ? convertAtRate(chain.quantity, ctx.config.USDT_RATE) : bankAmount!;
  if (chain) checkRange(amount, 'txId');
  return { txId, chain, amount };
}

/**
 * Records a pending deposit with its screenshot. The request's own checks come first, then
 * the user's rate; the screenshot is then staged, and the cap on pending deposits is checked
 * in the transaction that writes the upload row, the deposit and the idempotency record,
 * under a lock on the user's row: submissions sent at once cannot pass the cap together. A
 * refusal there discards the staged file, so it leaves no file and no row. (An idempotent
 * replay answers before the cap is looked at.)
 */
async function submitDeposit(
  ctx: DepositContext,
  userId: number,
  body: DepositBody,
  screenshot: IncomingFile | undefined,
  idempotencyKey: string | undefined,
): Promise<Answer<Deposit>> {
  const { db, config, uploads, userEvents, pendingDepositsMax } = ctx;
  const { txId, chain, amount } = await checkSubmission(ctx, userId, body, screenshot);
  const staged = screenshot ? await uploads.stage([screenshot]) : [];
  const image = staged[0];
  const request = { ...body, ...(txId ? { txId } : {}), screenshot: image?.sha256 ?? null };
  try {
    const answer = await idempotent(db, { userId, key: idempotencyKey, request }, async (tx) => {
      if ((await repo.lockPendingDeposits(tx, userId)) >= pendingDepositsMax)
        throw conflict(
          'TOO_MANY_PENDING_DEPOSITS',
          `${pendingDepositsMax} deposits are under review already; wait for their review`,
        );
      if (body.resubmitOf !== undefined) await checkResubmission(tx, userId, body.resubmitOf);
      if (chain && (await repo.transferInUse(tx, chain, userId))) throw txIdInUse();
      if (staged.length) await uploads.record(tx, userId, staged);
      const row = await repo.insertDeposit(tx, {
        userId,
        amount,
        chain: chain ?? undefined,
        screenshotId: image?.id ?? null,
        txId,
        resubmittedFrom: body.resubmitOf,
        remark: body.remark,
        ...(body.channel === 'bank'
          ? {
              channel: body.channel,
              payerBank: body.payerBank,
              payerCard: body.payerCard,
              payerName: body.payerName,
            }
          : { channel: body.channel, quantity: chain!.quantity, rate: config.USDT_RATE }),
      });
      return { status: 201, body: presentDeposit(row) };
    });
    // A replay answers with the first deposit and its screenshot; this copy is not needed.
    if (answer.replayed) await uploads.discard(staged);
    else userEvents.emit(userId, 'deposit', answer.body);
    return answer;
  } catch (err) {
    await uploads.discard(staged);
    // Two submissions racing past the checks: the unique indexes refuse the second.
    if (pgErrorCode(err) === '23505')
      throw chain && (await repo.transferInUse(db, chain, userId))
        ? txIdInUse()
        : alreadyResubmitted();
    throw err;
  }
}

/** The operators' review queue: each pending deposit credited or refused. */
function depositReviews({ db, userEvents, summaries }: DepositContext) {
  return {
    /** Pending items in the queue, or one user's (whether they have something under review). */
    pendingCount: (userId?: number) => repo.countPending(db, userId),

    async review(q: PageRequest & { status?: DepositStatus }) {
      return toPage(await repo.listDeposits(db, q), q.limit, presentOpsDeposit);
    },

    /** Credits the deposit: its status and the ledger transfer commit together, once. */
    async approve(id: number): Promise<OpsDeposit> {
      const { row, message } = await db.transaction(async (tx) => {
        const d = await repo.reviewDeposit(tx, id, 'approved', null);
        if (!d) throw await notPending(tx, id);
        return { row: d, message: await creditDeposit(tx, d, 'deposit_approved') };
      });
      announceMessage(userEvents, message);
      announceDeposit(userEvents, row);
      await summaries.publish(row.user_id);
      return presentOpsDeposit(row);
    },

    /** Refuses the deposit with a reason the user sees; no money moves. */
    async reject(id: number, reason: string): Promise<OpsDeposit> {
      const { row, message } = await db.transaction(async (tx) => {
        const d = await repo.reviewDeposit(tx, id, 'rejected', reason);
        if (!d) throw await notPending(tx, id);
        const params = { amount: d.amount, reason, ref: String(d.id) };
        return {
          row: d,
          message: await writeSystemMessage(tx, d.user_id, 'deposit_rejected', params),
        };
      });
      announceMessage(userEvents, message);
      announceDeposit(userEvents, row);
      return presentOpsDeposit(row);
    },
  };
}

/** Deposits: the user's claim with a screenshot, then an operator's approval credits it. */
export function createDepositService(deps: DepositDeps) {
  const ctx: DepositContext = {
    ...deps,
    pendingDepositsMax: deps.pendingDepositsMax ?? PENDING_DEPOSITS_MAX,
  };
  return {
    /** See `submitDeposit`. */
    create: (
      userId: number,
      body: DepositBody,
      screenshot: IncomingFile | undefined,
      idempotencyKey: string | undefined,
    ): Promise<Answer<Deposit>> => submitDeposit(ctx, userId, body, screenshot, idempotencyKey),

    /** The user's deposits, newest first; of one channel when asked. */
    async list(userId: number, page: PageRequest & { channel?: DepositChannelId }) {
      return toPage(await repo.userDeposits(ctx.db, userId, page), page.limit, presentDeposit);
    },

    ...depositReviews(ctx),
  };
}

/**
 * Moves a deposit's amount from the outside world into the user's available balance, with its
 * message, inside the caller's transaction (the one that marked it approved). Ledger ref
 * `deposit:<id>`, unique: a deposit is credited once however it was approved.
 */
export async function creditDeposit(
  tx: Queryable,
  d: DepositRow,
  kind: 'deposit_approved' | 'deposit_credited',
) {
  await transfer(tx, {
    kind: 'deposit',
    userId: d.user_id,
    ref: `deposit:${d.id}`,
    legs: [
      { account: { house: 'world' }, amount: -d.amount },
      { account: { user: d.user_id, kind: 'available' }, amount: d.amount },
    ],
  });
  return writeSystemMessage(tx, d.user_id, kind, { amount: d.amount, ref: String(d.id) });
}

/** Tells the user's sockets a deposit of theirs changed (after the commit that changed it). */
export function announceDeposit(userEvents: UserEvents, d: DepositRow): void {
  userEvents.emit(d.user_id, 'deposit', presentDeposit(d));
}
