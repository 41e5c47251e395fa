import type { Tick } from '@shared/market/model';
import type { TicksGap } from '@shared/socket';

/** Ticks a gateway keeps per product for re-subscribing clients: about a minute at 10 a second. */
export const TICK_RING_SIZE = 600;

/**
 * Each product's most recent ticks, in seq order, so a client whose socket dropped for a moment
 * gets the ticks it missed when it subscribes again (with the seq it holds) instead of reloading
 * its chart's history. What the ring no longer holds is told as a gap.
 */
export function createTickRing(size = TICK_RING_SIZE) {
  const rings = new Map<string, Tick[]>();
  return {
    add(tick: Tick): void {
      const ring = rings.get(tick.id) ?? [];
      if (!rings.has(tick.id)) rings.set(tick.id, ring);
      const last = ring.at(-1);
      if (last && tick.seq <= last.seq) return; // a repeat or a late one: the ring stays in order
      ring.push(tick);
      if (ring.length > size) ring.shift();
    },
    latest(product: string): Tick | undefined {
      return rings.get(product)?.at(-1);
    },
    /**
     * The ticks after seq `after`, and the seqs missing before them when the ring does not reach
     * back that far (`to` null: it holds nothing yet, whatever comes next is after a gap).
     */
    after(product: string, after: number): { ticks: Tick[]; gap: TicksGap | null } {
      const ring = rings.get(product) ?? [];
      const first = ring[0];
      if (!first) return { ticks: [], gap: { product, from: after + 1, to: null } };
      const ticks = ring.filter((t) => t.seq > after);
      const gap = first.seq > after + 1 ? { product, from: after + 1, to: first.seq - 1 } : null;
      return { ticks, gap };
    },
  };
}
