import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { winPayout, type Direction } from '@shared/orders/model';
import { enter, type EntryView, type TapeTick } from './entry-rule';
import { SETTLE_GRACE_MS, TAPE_BACKSTOP_MS, settle, type ExitView } from './exit-rule';

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

/**
 * The tape as the world makes it: every tick is written `lagMs` after its time (a busy database),
 * in time order, and the simulator writing it dies at `diesAt` (null: never), after which nothing
 * more is written. `writtenBy(now)` is what the worker's SQL can see at `now`.
 */
interface World {
  tape: TapeTick[];
  lagMs: number;
  diesAt: number | null;
}
const end = (w: World, nowMs: number) => Math.min(nowMs, w.diesAt ?? Infinity);
const writtenBy = (w: World, nowMs: number) =>
  w.tape.filter((t) => t.ts + w.lagMs <= end(w, nowMs));
/** Every tick at or before the watermark is written: the tape writer's promise. */
const watermarkAt = (w: World, nowMs: number) => end(w, nowMs) - w.lagMs - 1;
const liveAt = (w: World, nowMs: number) => w.diesAt === null || nowMs < w.diesAt;
/** The tape as it will stand once everything the simulator made has been written. */
const finalTape = (w: World) => writtenBy(w, Infinity);

/**
 * The entry, as a person reading DECISIONS.md would find it with the final tape in hand: the
 * first tick after acceptance within the window, else void.
 */
function entryByHand(o: Terms, tape: TapeTick[]) {
  const windowEnd = Math.min(o.acceptedMs + MAX_DELAY, o.expiresMs);
  const inWindow = tape.filter((t) => t.ts > o.acceptedMs && t.ts <= windowEnd).sort(byTime);
  return inWindow[0] ?? null;
}

/** The exit and result, by hand: the last tick at or before expiry, compared with the entry. */
function exitByHand(o: Terms, entry: TapeTick, tape: TapeTick[]) {
  const exit =
    tape
      .filter((t) => t.ts <= o.expiresMs)
      .sort(byTime)
      .at(-1) ?? null;
  if (!exit || exit.ts < o.expiresMs - MAX_DELAY) return { status: 'void', payout: o.amount, exit };
  if (exit.price === entry.price) return { status: 'draw', payout: o.amount, exit };
  const won = o.direction === 'up' ? exit.price > entry.price : exit.price < entry.price;
  return { status: won ? 'won' : 'lost', payout: won ? winPayout(o.amount, o.rateBp) : 0, exit };
}

/** What the worker's SQL reads at `nowMs` (settlement.repo.ts, claimAwaitingEntry). */
function entryView(o: Terms, w: World, nowMs: number): EntryView {
  const after = writtenBy(w, nowMs)
    .filter((t) => t.ts > o.acceptedMs)
    .sort(byTime);
  return {
    first: after[0] ?? null,
    sinceAcceptanceMs: nowMs - o.acceptedMs,
    tapeThroughMs: watermarkAt(w, nowMs),
    feedLive: liveAt(w, nowMs),
  };
}

/** What the worker's SQL reads around the expiry (settlement.repo.ts, claimDue). */
function exitView(o: Terms, entry: TapeTick, w: World, nowMs: number): ExitView {
  const recorded = writtenBy(w, nowMs);
  const candidates = recorded.filter((t) => t.ts <= o.expiresMs && t.ts >= entry.ts).sort(byTime);
  return {
    exit: candidates.at(-1) ?? null,
    tapeFinal: watermarkAt(w, nowMs) >= o.expiresMs || recorded.some((t) => t.ts > o.expiresMs),
    sinceExpiryMs: nowMs - o.expiresMs,
    feedLive: liveAt(w, nowMs),
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
    // How late the tape is written (a busy database), and when its simulator dies, if it does.
    lagMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 8000 })),
    diesAfterMs: fc.option(fc.integer({ min: -5000, max: 40_000 }), { nil: null }),
  }),
);

describe('entry and exit rules together', () => {
  it('enter at the first tick after acceptance within the window (else void), exit at the last at or before expiry', () => {
    fc.assert(
      fc.property(caseArb, ({ tape, order: o, entryAfterMs, exitAfterMs, lagMs, diesAfterMs }) => {
        const w: World = {
          tape,
          lagMs,
          diesAt: diesAfterMs === null ? null : o.acceptedMs + diesAfterMs,
        };
        const settled = finalTape(w);
        // Whenever the worker looks, what it decides is what the final tape says: a tape that is
        // merely late never decides an order while the feed lives.
        const lookAt = o.acceptedMs + entryAfterMs;
        const got = enter(o, entryView(o, w, lookAt), MAX_DELAY);
        const want = entryByHand(o, settled);
        if (got.final) expect(got.entry).toEqual(want);

        // Late enough, the entry is always decided.
        const windowEnd = Math.min(o.acceptedMs + MAX_DELAY, o.expiresMs);
        const decidedAt = Math.max(
          lookAt,
          w.diesAt === null
            ? windowEnd + lagMs + 1
            : Math.max(w.diesAt, windowEnd + SETTLE_GRACE_MS),
        );
        const decided = enter(o, entryView(o, w, decidedAt), MAX_DELAY);
        expect(decided.final).toBe(true);
        if (!decided.final) return;
        expect(decided.entry).toEqual(want);
        if (!decided.entry) {
          expect(decided).toEqual({ final: true, entry: null, voidReason: 'NO_ENTRY_TICK' });
          return;
        }
        const entry = decided.entry;
        // Never a tick at or before acceptance, never one the window does not hold.
        expect(entry.ts).toBeGreaterThan(o.acceptedMs);
        expect(entry.ts).toBeLessThanOrEqual(windowEnd);

        // The worker settles only due orders, at any moment after expiry.
        const settleAt = Math.max(decidedAt, o.expiresMs + exitAfterMs);
        const s = settle(
          { ...o, entryPrice: entry.price },
          exitView(o, entry, w, settleAt),
          MAX_DELAY,
        );
        const byHand = exitByHand(o, entry, settled);
        if (s.final) {
          expect(s.status).toBe(byHand.status);
          expect(s.payout).toBe(byHand.payout);
          expect(s.exit).toEqual(byHand.exit);
          if (s.exit) {
            // The exit never precedes the entry.
            expect(byTime(s.exit, entry)).toBeGreaterThanOrEqual(0);
            expect(s.exit.ts).toBeLessThanOrEqual(o.expiresMs);
          }
        }
        // And late enough, decided.
        const lateAt =
          w.diesAt === null
            ? o.expiresMs + lagMs + 1
            : Math.max(w.diesAt, o.expiresMs + SETTLE_GRACE_MS);
        const late = settle(
          { ...o, entryPrice: entry.price },
          exitView(o, entry, w, Math.max(settleAt, lateAt)),
          MAX_DELAY,
        );
        expect(late).toMatchObject({ final: true, status: byHand.status, exit: byHand.exit });
      }),
      { numRuns: 3000 },
    );
  });

  it('decides on a tape that stays incomplete once the backstop has passed, even if the feed says it lives', () => {
    const o = { acceptedMs: 10_000, expiresMs: 40_000 };
    const quiet = { first: null, tapeThroughMs: 0, feedLive: true };
    expect(
      enter(o, { ...quiet, sinceAcceptanceMs: 3000 + TAPE_BACKSTOP_MS - 1 }, MAX_DELAY),
    ).toEqual({
      final: false,
    });
    expect(enter(o, { ...quiet, sinceAcceptanceMs: 3000 + TAPE_BACKSTOP_MS }, MAX_DELAY)).toEqual({
      final: true,
      entry: null,
      voidReason: 'NO_ENTRY_TICK',
    });
  });

  const o = { acceptedMs: 10_000, expiresMs: 40_000 };
  const at = (ts: number, seq = 1, price = 100): TapeTick => ({ seq, ts, price });
  /** A tape whose watermark is `through`, with no simulator left writing it. */
  const tapeOf = (through: number) => ({ tapeThroughMs: through, feedLive: false });
  it('takes the first tick after acceptance up to the max feed delay, and no later one', () => {
    expect(enter(o, { first: at(10_001), sinceAcceptanceMs: 5, ...tapeOf(0) }, MAX_DELAY)).toEqual({
      final: true,
      entry: at(10_001),
    });
    expect(
      enter(o, { first: at(13_000), sinceAcceptanceMs: 3100, ...tapeOf(0) }, MAX_DELAY),
    ).toEqual({
      final: true,
      entry: at(13_000),
    });
    expect(
      enter(o, { first: at(13_001), sinceAcceptanceMs: 3100, ...tapeOf(0) }, MAX_DELAY),
    ).toEqual({
      final: true,
      entry: null,
      voidReason: 'NO_ENTRY_TICK',
    });
  });
  it('waits for a tick until the tape is complete through the window, however late', () => {
    const live = { first: null, feedLive: true };
    expect(
      enter(o, { ...live, sinceAcceptanceMs: 9000, tapeThroughMs: 12_999 }, MAX_DELAY),
    ).toEqual({ final: false });
    expect(
      enter(o, { ...live, sinceAcceptanceMs: 3001, tapeThroughMs: 13_000 }, MAX_DELAY),
    ).toEqual({ final: true, entry: null, voidReason: 'NO_ENTRY_TICK' });
  });
  it('without a live feed, waits for a tick until the window and the grace have passed, then voids', () => {
    expect(enter(o, { first: null, sinceAcceptanceMs: 0, ...tapeOf(0) }, MAX_DELAY)).toEqual({
      final: false,
    });
    expect(enter(o, { first: null, sinceAcceptanceMs: 4999, ...tapeOf(0) }, MAX_DELAY)).toEqual({
      final: false,
    });
    expect(
      enter(o, { first: null, sinceAcceptanceMs: 5000, ...tapeOf(0) }, MAX_DELAY),
    ).toMatchObject({
      final: true,
      entry: null,
    });
  });
  it('never lets the window pass the expiry', () => {
    const short = { acceptedMs: 10_000, expiresMs: 11_000 };
    expect(
      enter(short, { first: at(11_000), sinceAcceptanceMs: 1000, ...tapeOf(0) }, MAX_DELAY),
    ).toMatchObject({
      entry: at(11_000),
    });
    expect(
      enter(short, { first: at(11_001), sinceAcceptanceMs: 1001, ...tapeOf(0) }, MAX_DELAY),
    ).toMatchObject({
      entry: null,
    });
    expect(
      enter(short, { first: null, sinceAcceptanceMs: 3000, ...tapeOf(0) }, MAX_DELAY),
    ).toMatchObject({
      entry: null,
    });
  });
});
