import { announceMessage, writeSystemMessages } from '../content/system-messages';
import { transferMany } from '../ledger/ledger';
import { finalThrough } from './exit-rule';
import * as setRepo from './settlement-set.repo';
import { closingTransfer, factsOf, resultMessage, type WorkerDeps } from './settlement.closing';

/**
 * How much of a backlog (expiries, from each product's first due one) a round reads: the tape of
 * a minute is some 120 ticks a product, whatever the number of orders.
 */
const SPAN_MS = 60_000;

/** Orders of one product whose expiries in [fromMs, toMs] share the exit tick `exit`. */
export interface ExitSet {
  productId: string;
  fromMs: number;
  toMs: number;
  exit: setRepo.TapeTick | null;
}

/**
 * Splits a product's due expiries (ascending) into sets that share their exit, on its ticks
 * around them (tape order): the exit of an expiry is the last tick at or before it (of several at
 * one time, the last written), or none. A set is final (exit-rule.ts's `exitFinal`) when a tick
 * after it is recorded, or else for its expiries up to `finalMs` (`finalThrough`); the rest waits.
 */
export function exitSets(
  productId: string,
  expiries: readonly number[],
  ticks: readonly setRepo.TapeTick[],
  finalMs: number,
): ExitSet[] {
  const sets: ExitSet[] = [];
  let i = -1; // the index in `ticks` of the current expiry's exit
  for (const e of expiries) {
    while (i + 1 < ticks.length && ticks[i + 1]!.ts <= e) i++;
    const exit = i >= 0 ? ticks[i]! : null;
    const laterTick = i + 1 < ticks.length; // ticks[i + 1].ts > e
    if (!laterTick && e > finalMs) break; // this and every later expiry wait for the tape
    const last = sets.at(-1);
    if (last && last.exit === exit) last.toMs = e;
    else sets.push({ productId, fromMs: e, toMs: e, exit });
  }
  return sets;
}

/**
 * Settles every due order whose exit can be decided now, set by set: one read of the due
 * expiries and one of the tape around them per round, the sets (`exitSets`) judged once each,
 * then each set's orders claimed and settled `batchSize` at a time in one statement
 * (settlement-set.repo.ts), each batch in one transaction with its ledger transfers and messages.
 * Returns how many it settled.
 */
export async function settleBatch(d: WorkerDeps, batchSize: number): Promise<number> {
  const due = await setRepo.dueExpiries(d.db, SPAN_MS);
  if (!due.byProduct.size) return 0;
  const ranges = [...due.byProduct].map(([productId, e]) => ({
    productId,
    fromMs: e[0]!,
    toMs: e.at(-1)!,
  }));
  const ticks = await setRepo.ticksAround(d.db, ranges);
  const finalMs = finalThrough(due);
  let settled = 0;
  for (const [productId, expiries] of due.byProduct)
    for (const set of exitSets(productId, expiries, ticks.get(productId)!, finalMs))
      // Fewer than a batch: the set is done, or other workers hold the rest (SKIP LOCKED).
      for (let n = batchSize; n === batchSize; settled += n)
        n = await settleSetBatch(d, set, batchSize);
  return settled;
}

/** One batch of a set: claimed and settled in one statement, with its transfers and messages. */
async function settleSetBatch(d: WorkerDeps, set: ExitSet, batchSize: number): Promise<number> {
  const done = await d.db.transaction(async (tx) => {
    const rows = await setRepo.settleSet(tx, {
      ...set,
      maxFeedDelayMs: d.maxFeedDelayMs,
      limit: batchSize,
    });
    if (!rows.length) return { rows, messages: [] };
    const messages = await writeSystemMessages(
      tx,
      rows.filter((r) => r.mode === 'real').map(resultMessage),
    );
    // Last: the transfers lock the house account, which every settling worker needs, so it is
    // held for the commit only, not for the other statements.
    await transferMany(tx, rows.map(closingTransfer));
    return { rows, messages };
  });
  if (!done.rows.length) return 0;
  // One line per batch: the set, its exit, and every order's id, user and result, for operators.
  d.log?.info(
    {
      event: 'orders.settled',
      productId: set.productId,
      expiresMs: [set.fromMs, set.toMs],
      exit: set.exit,
      orders: done.rows.map((r) => [r.id, r.user_id, r.mode, r.status, r.amount, r.payout]),
    },
    'orders settled',
  );
  for (const m of done.messages) announceMessage(d.userEvents, m);
  for (const row of done.rows) {
    d.userEvents.emit(row.user_id, 'order', d.orders.present(row));
    // Measured now, committed and announced: what the trader waited since expiry.
    d.onSettled?.(Date.now() - row.expires_ms, factsOf(row));
  }
  d.balancesChanged([...new Set(done.rows.map((r) => r.user_id))]);
  return done.rows.length;
}
