import type { Silence } from './results';

/**
 * Per channel, the first receipt of each new item (a tick's seq, a snapshot's ts) on this host's
 * clock, and the longest wait between two. A stall of the process that stamps the items shows
 * here even when their latency cannot (they are stamped after the stall).
 */
export class SilenceTracker {
  private readonly channels = new Map<
    string,
    { first: number; last: number; longest: number; items: number; top: number }
  >();

  /** Notes a receipt; true when the item is new on its channel (its first receipt). */
  heard(channel: string, id: number, at: number): boolean {
    const s = this.channels.get(channel);
    if (!s) {
      this.channels.set(channel, { first: at, last: at, longest: 0, items: 1, top: id });
      return true;
    }
    if (id <= s.top) return false;
    s.top = id;
    s.longest = Math.max(s.longest, at - s.last);
    s.last = at;
    s.items++;
    return true;
  }

  /** Each channel's figures at `end`: a silence still under way at the end counts too. */
  summary(end: number): Record<string, Silence> {
    const out: Record<string, Silence> = {};
    for (const [ch, s] of this.channels)
      out[ch] = {
        longestMs: Math.max(s.longest, end - s.last),
        items: s.items,
        spanMs: end - s.first,
      };
    return out;
  }
}
