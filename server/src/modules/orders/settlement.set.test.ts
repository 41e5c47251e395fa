import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exitFinal, finalThrough } from './exit-rule';
import { exitSets } from './settlement.set';

/** The exit the rule names for an expiry: the last tick at or before it, the last written of a time. */
const ruleExit = (ticks: { seq: number; ts: number }[], e: number) =>
  ticks.filter((t) => t.ts <= e).at(-1) ?? null;

const tape = fc
  .array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 30 })
  .map((times) =>
    times.sort((a, b) => a - b).map((ts, i) => ({ seq: i + 1, ts: 100_000 + ts, price: i })),
  );
const clocks = fc.record({
  watermarkMs: fc.integer({ min: 90_000, max: 110_000 }),
  nowMs: fc.integer({ min: 100_000, max: 140_000 }),
  feedLive: fc.boolean(),
});

describe('exitSets: the sets of due expiries that share their exit', () => {
  it('gives every final expiry, and only those, the exit the rule names, in sets sharing one exit', () => {
    fc.assert(
      fc.property(
        tape,
        fc.uniqueArray(fc.integer({ min: 99_000, max: 106_000 }), { minLength: 1, maxLength: 40 }),
        clocks,
        (ticks, raw, clock) => {
          const expiries = [...raw].sort((a, b) => a - b);
          const sets = exitSets('P', expiries, ticks, finalThrough(clock));
          for (const e of expiries) {
            const set = sets.find((s) => s.fromMs <= e && e <= s.toMs);
            const laterTick = ticks.some((t) => t.ts > e);
            const final = exitFinal({
              tapeFinal: laterTick || e <= clock.watermarkMs,
              sinceExpiryMs: clock.nowMs - e,
              feedLive: clock.feedLive,
            });
            // Final expiries are settled now, with the rule's exit; the rest wait for the tape.
            expect(set !== undefined).toBe(final);
            if (set) expect(set.exit).toBe(ruleExit(ticks, e));
          }
          // Sets are disjoint, in expiry order, and neighbours differ in their exit.
          for (let i = 1; i < sets.length; i++) {
            expect(sets[i]!.fromMs).toBeGreaterThan(sets[i - 1]!.toMs);
            expect(sets[i]!.exit).not.toBe(sets[i - 1]!.exit);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('puts a busy second of expiries between two ticks into one set', () => {
    const ticks = [
      { seq: 1, ts: 1_000, price: 10 },
      { seq: 2, ts: 1_500, price: 11 },
      { seq: 3, ts: 1_500, price: 12 },
      { seq: 4, ts: 2_000, price: 13 },
    ];
    const expiries = Array.from({ length: 500 }, (_, i) => 1_500 + i);
    expect(exitSets('P', expiries, ticks, 0)).toEqual([
      { productId: 'P', fromMs: 1_500, toMs: 1_999, exit: ticks[2] },
    ]);
  });
});
