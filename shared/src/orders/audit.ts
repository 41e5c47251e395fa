import type { Order, OrderStatus, TickRef, VoidReason } from './model';
import { keepsClockRule } from './clock-expiry';

/**
 * The published settlement rule, read afresh from the public tape: what an order's entry, exit,
 * result and payout must be. Written apart from the server's settlement (entry-rule.ts,
 * exit-rule.ts) on purpose: `npm run verify:orders` checks the server with it, so sharing code
 * with what it checks would prove nothing.
 *
 * - Entry: the first tick recorded after acceptance (`ts > createdAt`, ties by the lower `seq`),
 *   if it comes within the max feed delay of acceptance and not after expiry; otherwise the order
 *   is void (NO_ENTRY_TICK).
 * - Exit: the last tick at or before expiry (ties by the higher `seq`); when there is none, or it
 *   is older than expiry − the max feed delay, the feed stalled and the order is void (FEED_STALE).
 * - Up wins above the entry price, down below it; equal is a draw. A win pays
 *   stake + ⌊stake × rate⌋ (rate to 4 decimals), a loss nothing; a draw or void refunds the stake.
 */

/** A tick of the public tape (`GET /api/market/ticks`). */
export interface PublicTick {
  seq: number;
  ts: number;
  price: string;
}

export interface ExpectedOutcome {
  status: Exclude<OrderStatus, 'open'>;
  entry: TickRef | null;
  exit: TickRef | null;
  payout: number;
  pnl: number;
  voidReason: VoidReason | null;
}

/** A decimal string as an integer at `scale` decimals: "67012.3", 4 → 670123000n. */
function scaled(decimal: string, scale: number): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!m) throw new Error(`not a decimal: ${decimal}`);
  const [, sign, whole, frac = ''] = m;
  const digits = BigInt(whole! + frac.padEnd(scale, '0').slice(0, scale));
  return sign ? -digits : digits;
}

const decimals = (d: string) => d.split('.')[1]?.length ?? 0;

/** Compares two decimal strings exactly: negative, zero or positive. */
export function compareDecimals(a: string, b: string): number {
  const scale = Math.max(decimals(a), decimals(b));
  const d = scaled(a, scale) - scaled(b, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** What a won order pays: the stake and ⌊stake × rate⌋, the rate read to 4 decimals. */
export function payoutIfWon(stake: number, rate: string): number {
  return Number(BigInt(stake) + (BigInt(stake) * scaled(rate, 4)) / 10_000n);
}

const ref = (t: PublicTick): TickRef => ({ seq: t.seq, ts: t.ts, price: t.price });

/**
 * The outcome the rule gives `order` on `tape` (the product's ticks, any order, covering at
 * least acceptance to expiry). `maxFeedDelayMs` is the deployment's MAX_FEED_DELAY_MS.
 */
export function expectedOutcome(
  order: Pick<Order, 'direction' | 'amount' | 'rate' | 'createdAt' | 'expiresAt'>,
  tape: readonly PublicTick[],
  maxFeedDelayMs: number,
): ExpectedOutcome {
  const refund = (voidReason: VoidReason, entry: TickRef | null, exit: TickRef | null) => ({
    status: 'void' as const,
    entry,
    exit,
    payout: order.amount,
    pnl: 0,
    voidReason,
  });
  let first: PublicTick | null = null;
  let last: PublicTick | null = null;
  for (const t of tape) {
    if (
      t.ts > order.createdAt &&
      (!first || t.ts < first.ts || (t.ts === first.ts && t.seq < first.seq))
    )
      first = t;
    if (
      t.ts <= order.expiresAt &&
      (!last || t.ts > last.ts || (t.ts === last.ts && t.seq > last.seq))
    )
      last = t;
  }
  const entryWindowEnd = Math.min(order.createdAt + maxFeedDelayMs, order.expiresAt);
  if (!first || first.ts > entryWindowEnd) return refund('NO_ENTRY_TICK', null, null);
  const entry = ref(first);
  if (!last || last.ts < order.expiresAt - maxFeedDelayMs)
    return refund('FEED_STALE', entry, last && ref(last));
  const exit = ref(last);
  const move = compareDecimals(exit.price, entry.price);
  if (move === 0)
    return { status: 'draw', entry, exit, payout: order.amount, pnl: 0, voidReason: null };
  const won = order.direction === 'up' ? move > 0 : move < 0;
  const payout = won ? payoutIfWon(order.amount, order.rate) : 0;
  return {
    status: won ? 'won' : 'lost',
    entry,
    exit,
    payout,
    pnl: payout - order.amount,
    voidReason: null,
  };
}

const sameTick = (a: TickRef | null, b: TickRef | null) =>
  a === null || b === null
    ? a === b
    : a.seq === b.seq && a.ts === b.ts && compareDecimals(a.price, b.price) === 0;

const showTick = (t: TickRef | null) => (t ? `#${t.seq} ${t.price} at ${t.ts}` : 'none');

/**
 * What is wrong with an order's expiry, if anything: a duration order ends its duration after
 * acceptance; an order at a clock time ends on a whole minute at least 30 s after acceptance, its
 * duration the whole seconds between (clock-expiry.ts).
 */
export function expiryProblem(
  order: Pick<Order, 'createdAt' | 'expiresAt' | 'duration' | 'expiry'>,
): string | null {
  if (order.expiry)
    return keepsClockRule(order)
      ? null
      : `expiry ${order.expiresAt} is not the end of a minute ${order.duration} s after acceptance (at least 30 s)`;
  return order.expiresAt === order.createdAt + order.duration * 1000
    ? null
    : `expiry ${order.expiresAt} is not acceptance + ${order.duration} s`;
}

/**
 * How a closed order differs from what the rule gives on the tape: one sentence per difference,
 * none when it was settled as published.
 */
export function auditOrder(
  order: Order,
  tape: readonly PublicTick[],
  maxFeedDelayMs: number,
): { expected: ExpectedOutcome; problems: string[] } {
  const expected = expectedOutcome(order, tape, maxFeedDelayMs);
  const problems: string[] = [];
  const expiry = expiryProblem(order);
  if (expiry) problems.push(expiry);
  if (order.status !== expected.status)
    problems.push(`result ${order.status}, the tape gives ${expected.status}`);
  if (!sameTick(order.entry, expected.entry))
    problems.push(`entry ${showTick(order.entry)}, the tape gives ${showTick(expected.entry)}`);
  // A void for want of an entry names no exit; a FEED_STALE void may carry the stale tick.
  if (expected.status !== 'void' && !sameTick(order.exit, expected.exit))
    problems.push(`exit ${showTick(order.exit)}, the tape gives ${showTick(expected.exit)}`);
  if (order.payout !== expected.payout)
    problems.push(`payout ${order.payout}, the rule gives ${expected.payout}`);
  if (order.pnl !== expected.pnl) problems.push(`P&L ${order.pnl}, the rule gives ${expected.pnl}`);
  if (order.voidReason !== expected.voidReason)
    problems.push(
      `void reason ${order.voidReason ?? 'none'}, the rule gives ${expected.voidReason ?? 'none'}`,
    );
  return { expected, problems };
}
