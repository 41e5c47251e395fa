import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { winPayout, type Direction } from '@shared/orders';
import { enter, type EntryView, type TapeTick } from './entry-rule';
import { SETTLE_GRACE_MS, settle, type ExitView } from './exit-rule';

const MAX_DELAY = 3000;

interface Terms {
  direction: Direction;
  amount: number;
  rateBp: number;
  acceptedMs: number;
  expiresMs: number;
}

/** (ts, seq) order: the tape's order. */
const byTime = (a: TapeTick, b: TapeTick) => a.ts - b.ts || a.seq - b.seq;
/** The tape as recorded by `nowMs`: ticks are written in time order, so exactly those up to now. */
const recordedBy = (tape: TapeTick[], nowMs: number) => tape.filter((t) => t.ts <= nowMs);

/** The entry, as a person reading DECISIONS.md would find it with the whole tape in hand. */
function entryByHand(o: Terms, tape: TapeTick[], nowMs: number) {
  const windowEnd = Math.min(o.acceptedMs + MAX_DELAY, o.expiresMs);
  const recorded = recordedBy(tape, nowMs);
  const inWindow = recorded.filter((t) => t.ts > o.acceptedMs && t.ts <= windowEnd).sort(byTime);
  if (inWindow.length) return { final: true as const, entry: inWindow[0]! };
  const after = recorded.some((t) => t.ts > windowEnd);
  if (!after && nowMs - windowEnd < SETTLE_GRACE_MS) return { final: false as const };
  return { final: true as const, entry: null };
}

/** The exit and result, by hand: the last tick at or before expiry, compared with the entry. */
function exitByHand(o: Terms, entry: TapeTick, tape: TapeTick[], nowMs: number) {
  const recorded = recordedBy(tape, nowMs);
  const exit =
    recorded
      .filter((t) => t.ts <= o.expiresMs)
      .sort(byTime)
      .at(-1) ?? null;
  const later = recorded.some((t) => t.ts > o.expiresMs);
  if (!later && nowMs - o.expiresMs < SETTLE_GRACE_MS) return { final: false as const };
  if (!exit || exit.ts < o.expiresMs - MAX_DELAY)
    return { final: true as const, status: 'void', payout: o.amount, exit };
  if (exit.price === entry.price)
    return { final: true as const, status: 'draw', payout: o.amount, exit };
  const won = o.direction === 'up' ? exit.price > entry.price : exit.price < entry.price;
  return {
    final: true as const,
    status: won ? 'won' : 'lost',
    payout: won ? winPayout(o.amount, o.rateBp) : 0,
    exit,
  };
}

/** What the worker's SQL reads from the same tape (orders.repo.ts, claimAwaitingEntry). */
function entryView(o: Terms, tape: TapeTick[], nowMs: number): EntryView {
  const after = recordedBy(tape, nowMs)
    .filter((t) => t.ts > o.acceptedMs)
    .sort(byTime);
  return { first: after[0] ?? null, sinceAcceptanceMs: nowMs - o.acceptedMs };
}

/** What the worker's SQL reads around the expiry (orders.repo.ts, claimDue). */
function exitView(o: Terms, entry: TapeTick, tape: TapeTick[], nowMs: number): ExitView {
  const recorded = recordedBy(tape, nowMs);
  const candidates = recorded.filter((t) => t.ts <= o.expiresMs && t.ts >= entry.ts).sort(byTime);
  return {
    exit: candidates.at(-1) ?? null,
    tapeFinal: recorded.some((t) => t.ts > o.expiresMs),
    sinceExpiryMs: nowMs - o.expiresMs,
  };
}

const tapeArb = fc
  .array(
    fc.record({ gap: fc.integer({ min: 0, max: 4000 }), move: fc.integer({ min: -3, max: 3 }) }),
    { minLength: 0, maxLength: 60 },
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

/** An order over a tape: accepted at a random time or exactly at one of the tape's ticks. */
const caseArb = tapeArb.chain((tape) =>
  fc.record({
    tape: fc.constant(tape),
    order: fc
      .record({
        direction: fc.constantFrom<Direction>('up', 'down'),
        amount: fc.integer({ min: 1000, max: 5_000_000 }),
        rateBp: fc.constantFrom(8000, 8500, 8800, 9000),
        acceptedMs: tape.length
          ? fc.oneof(
              fc.integer({ min: 995_000, max: tape.at(-1)!.ts + 5000 }),
              fc.constantFrom(...tape.map((t) => t.ts)),
            )
          : fc.integer({ min: 995_000, max: 1_100_000 }),
        // Real durations are 30 s and more; the short ones show the window never passes expiry.
        durationMs: fc.constantFrom(1000, 2500, 30_000, 60_000),
      })
      .map(({ durationMs, ...o }) => ({ ...o, expiresMs: o.acceptedMs + durationMs })),
    entryAfterMs: fc.integer({ min: 0, max: 10_000 }),
    exitAfterMs: fc.integer({ min: 0, max: 10_000 }),
  }),
);

describe('entry and exit rules together', () => {
  it('enter at the first tick after acceptance within the window (else void), exit at the last at or before expiry', () => {
    fc.assert(
      fc.property(caseArb, ({ tape, order: o, entryAfterMs, exitAfterMs }) => {
        // The worker may look at any moment after acceptance.
        const lookAt = o.acceptedMs + entryAfterMs;
        const got = enter(o, entryView(o, tape, lookAt), MAX_DELAY);
        const want = entryByHand(o, tape, lookAt);
        expect(got.final).toBe(want.final);
        if (got.final && want.final) expect(got.entry).toEqual(want.entry);

        // Late enough, the entry is always decided.
        const decidedAt = Math.max(lookAt, Math.min(o.acceptedMs + MAX_DELAY, o.expiresMs) + 2000);
        const decided = enter(o, entryView(o, tape, decidedAt), MAX_DELAY);
        expect(decided.final).toBe(true);
        if (!decided.final) return;
        if (!decided.entry) {
          expect(decided).toEqual({ final: true, entry: null, voidReason: 'NO_ENTRY_TICK' });
          // Void only when no tick at all lies in the window.
          const windowEnd = Math.min(o.acceptedMs + MAX_DELAY, o.expiresMs);
          expect(tape.some((t) => t.ts > o.acceptedMs && t.ts <= windowEnd)).toBe(false);
          return;
        }
        const entry = decided.entry;
        // Never a tick at or before acceptance, never one the window does not hold.
        expect(entry.ts).toBeGreaterThan(o.acceptedMs);
        expect(entry.ts).toBeLessThanOrEqual(Math.min(o.acceptedMs + MAX_DELAY, o.expiresMs));
        expect(tape.filter((t) => t.ts > o.acceptedMs).sort(byTime)[0]).toEqual(entry);

        // The worker settles only due orders.
        const settleAt = o.expiresMs + exitAfterMs;
        const s = settle(
          { ...o, entryPrice: entry.price },
          exitView(o, entry, tape, settleAt),
          MAX_DELAY,
        );
        const byHand = exitByHand(o, entry, tape, settleAt);
        expect(s.final).toBe(byHand.final);
        if (!s.final || !byHand.final) return;
        expect(s.status).toBe(byHand.status);
        expect(s.payout).toBe(byHand.payout);
        expect(s.exit).toEqual(byHand.exit);
        if (s.exit) {
          // The exit never precedes the entry.
          expect(byTime(s.exit, entry)).toBeGreaterThanOrEqual(0);
          expect(s.exit.ts).toBeLessThanOrEqual(o.expiresMs);
        }
      }),
      { numRuns: 3000 },
    );
  });

  const o = { acceptedMs: 10_000, expiresMs: 40_000 };
  const at = (ts: number, seq = 1, price = 100): TapeTick => ({ seq, ts, price });
  it('takes the first tick after acceptance up to the max feed delay, and no later one', () => {
    expect(enter(o, { first: at(10_001), sinceAcceptanceMs: 5 }, MAX_DELAY)).toEqual({
      final: true,
      entry: at(10_001),
    });
    expect(enter(o, { first: at(13_000), sinceAcceptanceMs: 3100 }, MAX_DELAY)).toEqual({
      final: true,
      entry: at(13_000),
    });
    expect(enter(o, { first: at(13_001), sinceAcceptanceMs: 3100 }, MAX_DELAY)).toEqual({
      final: true,
      entry: null,
      voidReason: 'NO_ENTRY_TICK',
    });
  });
  it('waits for a tick until the window and the grace have passed, then voids', () => {
    expect(enter(o, { first: null, sinceAcceptanceMs: 0 }, MAX_DELAY)).toEqual({ final: false });
    expect(enter(o, { first: null, sinceAcceptanceMs: 4999 }, MAX_DELAY)).toEqual({
      final: false,
    });
    expect(enter(o, { first: null, sinceAcceptanceMs: 5000 }, MAX_DELAY)).toMatchObject({
      final: true,
      entry: null,
    });
  });
  it('never lets the window pass the expiry', () => {
    const short = { acceptedMs: 10_000, expiresMs: 11_000 };
    expect(enter(short, { first: at(11_000), sinceAcceptanceMs: 1000 }, MAX_DELAY)).toMatchObject({
      entry: at(11_000),
    });
    expect(enter(short, { first: at(11_001), sinceAcceptanceMs: 1001 }, MAX_DELAY)).toMatchObject({
      entry: null,
    });
    expect(enter(short, { first: null, sinceAcceptanceMs: 3000 }, MAX_DELAY)).toMatchObject({
      entry: null,
    });
  });
});
