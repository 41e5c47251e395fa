import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { winPayout } from '@shared/orders/model';
import {
  SETTLE_GRACE_MS,
  TAPE_BACKSTOP_MS,
  settle,
  type ExitView,
  type OrderTerms,
} from './exit-rule';

const MAX_DELAY = 3000;
type T = { seq: number; ts: number; price: number };

/** What a person reading DECISIONS.md would do with the whole tape in hand. */
function byHand(o: OrderTerms, tape: T[], nowMs: number) {
  const recorded = tape.filter((t) => t.ts <= nowMs);
  const before = recorded.filter((t) => t.ts <= o.expiresMs);
  const exit = before.length
    ? before.reduce((a, b) => (b.ts > a.ts || (b.ts === a.ts && b.seq > a.seq) ? b : a))
    : null;
  const later = recorded.some((t) => t.ts > o.expiresMs);
  if (!later && nowMs - o.expiresMs < SETTLE_GRACE_MS) return { final: false as const };
  if (!exit || exit.ts < o.expiresMs - MAX_DELAY)
    return { final: true as const, status: 'void', payout: o.amount, exit };
  if (exit.price === o.entryPrice)
    return { final: true as const, status: 'draw', payout: o.amount, exit };
  const won = o.direction === 'up' ? exit.price > o.entryPrice : exit.price < o.entryPrice;
  return {
    final: true as const,
    status: won ? 'won' : 'lost',
    payout: won ? winPayout(o.amount, o.rateBp) : 0,
    exit,
  };
}

/** The view the worker's SQL builds from the same tape. */
function view(o: OrderTerms, tape: T[], nowMs: number): ExitView {
  const recorded = tape.filter((t) => t.ts <= nowMs);
  const atOrBefore = recorded
    .filter((t) => t.ts <= o.expiresMs)
    .sort((a, b) => b.ts - a.ts || b.seq - a.seq);
  return {
    exit: atOrBefore[0] ?? null,
    tapeFinal: recorded.some((t) => t.ts > o.expiresMs),
    sinceExpiryMs: nowMs - o.expiresMs,
    // No simulator left: the grace decides (entry-rule.test.ts covers a live, late tape).
    feedLive: false,
  };
}

const tapeArb = fc
  .array(
    fc.record({ gap: fc.integer({ min: 0, max: 5000 }), move: fc.integer({ min: -3, max: 3 }) }),
    { minLength: 0, maxLength: 40 },
  )
  .map((steps) => {
    let ts = 1_000_000;
    let price = 100;
    return steps.map((s, i) => {
      ts += s.gap;
      price = Math.max(1, price + s.move);
      return { seq: i + 1, ts, price };
    });
  });

const orderArb = fc.record({
  direction: fc.constantFrom('up' as const, 'down' as const),
  amount: fc.integer({ min: 1000, max: 5_000_000 }),
  rateBp: fc.constantFrom(8000, 8500, 8800, 9000),
  entryPrice: fc.integer({ min: 95, max: 105 }),
  expiresMs: fc.integer({ min: 1_000_000, max: 1_150_000 }),
});

describe('settlement exit rule', () => {
  it('chooses exactly the tick DECISIONS.md names, waits when it should, voids when it should', () => {
    fc.assert(
      fc.property(orderArb, tapeArb, fc.integer({ min: -1000, max: 10_000 }), (o, tape, after) => {
        const nowMs = o.expiresMs + after;
        if (nowMs < o.expiresMs) return; // the worker claims only due orders
        const got = settle(o, view(o, tape, nowMs), MAX_DELAY);
        const want = byHand(o, tape, nowMs);
        expect(got.final).toBe(want.final);
        if (got.final && want.final) {
          expect(got.status).toBe(want.status);
          expect(got.payout).toBe(want.payout);
          expect(got.exit).toEqual(want.exit);
        }
      }),
      { numRuns: 3000 },
    );
  });

  const o: OrderTerms = {
    direction: 'up',
    amount: 10_000,
    rateBp: 8500,
    entryPrice: 100,
    expiresMs: 10_000,
  };
  it('waits for a later tick or the grace', () => {
    expect(
      settle(
        o,
        {
          exit: { seq: 1, ts: 9_900, price: 101 },
          tapeFinal: false,
          sinceExpiryMs: 500,
          feedLive: false,
        },
        MAX_DELAY,
      ),
    ).toEqual({ final: false });
    expect(
      settle(
        o,
        {
          exit: { seq: 1, ts: 9_900, price: 101 },
          tapeFinal: true,
          sinceExpiryMs: 500,
          feedLive: false,
        },
        MAX_DELAY,
      ),
    ).toMatchObject({ status: 'won' });
    expect(
      settle(
        o,
        {
          exit: { seq: 1, ts: 9_900, price: 101 },
          tapeFinal: false,
          sinceExpiryMs: 2000,
          feedLive: false,
        },
        MAX_DELAY,
      ),
    ).toMatchObject({ status: 'won' });
  });
  it('while a simulator lives, waits for the tape however late it is, up to the backstop', () => {
    const late = { exit: { seq: 1, ts: 9_900, price: 101 }, tapeFinal: false, feedLive: true };
    expect(settle(o, { ...late, sinceExpiryMs: 2000 }, MAX_DELAY)).toEqual({ final: false });
    expect(settle(o, { ...late, sinceExpiryMs: TAPE_BACKSTOP_MS - 1 }, MAX_DELAY)).toEqual({
      final: false,
    });
    expect(settle(o, { ...late, sinceExpiryMs: TAPE_BACKSTOP_MS }, MAX_DELAY)).toMatchObject({
      status: 'won',
    });
  });
  it('pays stake + stake × rate on a win, nothing on a loss, the stake on a draw or void', () => {
    const at = (price: number, ts = 10_000) =>
      settle(
        o,
        { exit: { seq: 1, ts, price }, tapeFinal: true, sinceExpiryMs: 0, feedLive: true },
        MAX_DELAY,
      );
    expect(at(101)).toMatchObject({ status: 'won', payout: 18_500 });
    expect(at(99)).toMatchObject({ status: 'lost', payout: 0 });
    expect(at(100)).toMatchObject({ status: 'draw', payout: 10_000 });
    expect(at(101, 6_999)).toMatchObject({
      status: 'void',
      payout: 10_000,
      voidReason: 'FEED_STALE',
    });
    expect(at(101, 7_000)).toMatchObject({ status: 'won' });
    expect(
      settle(
        { ...o, direction: 'down' },
        {
          exit: { seq: 1, ts: 10_000, price: 99 },
          tapeFinal: true,
          sinceExpiryMs: 0,
          feedLive: true,
        },
        MAX_DELAY,
      ),
    ).toMatchObject({ status: 'won' });
    expect(
      settle(o, { exit: null, tapeFinal: true, sinceExpiryMs: 0, feedLive: true }, MAX_DELAY),
    ).toMatchObject({
      status: 'void',
    });
  });
});
