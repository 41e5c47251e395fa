import { describe, expect, it } from 'vitest';
import type { Tick } from '@shared/market/model';
import { createTickRing } from './tick-ring';

const tick = (seq: number, id = 'BTCUSDT'): Tick => ({ id, seq, ts: seq, price: '1' });
const seqs = (ticks: Tick[]) => ticks.map((t) => t.seq);

describe('tick ring', () => {
  it('holds the last ticks per product in seq order, and no repeat or late one', () => {
    const ring = createTickRing(3);
    for (const seq of [1, 2, 3, 3, 2, 4, 5]) ring.add(tick(seq));
    ring.add(tick(9, 'ETHUSDT'));
    expect(ring.latest('BTCUSDT')?.seq).toBe(5);
    expect(seqs(ring.after('BTCUSDT', 2).ticks)).toEqual([3, 4, 5]);
    expect(ring.after('BTCUSDT', 2).gap).toBeNull();
    expect(ring.after('BTCUSDT', 5)).toEqual({ ticks: [], gap: null });
  });

  it('names exactly the seqs it no longer holds', () => {
    const ring = createTickRing(3);
    for (let seq = 1; seq <= 10; seq++) ring.add(tick(seq));
    expect(ring.after('BTCUSDT', 4)).toEqual({
      ticks: [8, 9, 10].map((seq) => tick(seq)),
      gap: { product: 'BTCUSDT', from: 5, to: 7 },
    });
    // Nothing held yet (a gateway just started): whatever comes next follows a gap.
    expect(ring.after('ETHUSDT', 4)).toEqual({
      ticks: [],
      gap: { product: 'ETHUSDT', from: 5, to: null },
    });
  });
});
