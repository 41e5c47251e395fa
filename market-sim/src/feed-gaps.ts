/**
 * The feed's rhythm, per product: the gaps between consecutive ticks while the product is open,
 * kept as the largest gap of each minute over the last hour. A gap past the max feed delay voids
 * the orders whose exit falls in it (DECISIONS.md, Timed orders), so operators watch it (the
 * dashboard's feed figures, the `sim_tick_gap_seconds` metric and its alerts).
 */
const MINUTE = 60_000;
const WINDOW_MINUTES = 60;

export class FeedGaps {
  /** Per product: minute → the largest gap (ms) that ended in that minute. */
  private readonly minutes = new Map<string, Map<number, number>>();

  /** A gap of `gapMs` that ended at `ts` (the later tick's time). */
  record(productId: string, ts: number, gapMs: number): void {
    let byMinute = this.minutes.get(productId);
    if (!byMinute) {
      byMinute = new Map();
      this.minutes.set(productId, byMinute);
    }
    const minute = Math.floor(ts / MINUTE);
    byMinute.set(minute, Math.max(byMinute.get(minute) ?? 0, gapMs));
    for (const m of byMinute.keys()) if (m <= minute - WINDOW_MINUTES) byMinute.delete(m);
  }

  /** The largest gap of the hour before `now`, or null when none was recorded in it. */
  largest(productId: string, now: number): number | null {
    const byMinute = this.minutes.get(productId);
    if (!byMinute) return null;
    const from = Math.floor(now / MINUTE) - WINDOW_MINUTES;
    let max: number | null = null;
    for (const [m, gap] of byMinute) if (m > from && (max === null || gap > max)) max = gap;
    return max;
  }
}
