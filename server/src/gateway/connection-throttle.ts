/** Limits on socket connections per client address (one gateway process's own counts). */
export interface ConnectionLimits {
  /**
   * New connections per address per minute, or null for no limit. A token bucket of this many,
   * refilled evenly: a whole minute's allowance may come at once (everyone behind one NAT
   * reconnecting after a gateway restart), then one every 60/n seconds.
   */
  perMinute: number | null;
  /** Open connections per address, or null for no limit. */
  maxPerAddress: number | null;
}

export type Admission =
  { ok: true; release: () => void } | { ok: false; reason: 'rate' | 'concurrency' };

interface AddressState {
  tokens: number;
  at: number;
  open: number;
}

/**
 * Admits connections per address key. Every attempt spends a token, a refused one too: a client
 * retrying against the cap slows down like any other. Synchronous, so no two attempts from one
 * address can both pass on the same last token.
 */
export function createConnectionThrottle(
  limits: ConnectionLimits,
  now: () => number = () => performance.now(),
) {
  const state = new Map<string, AddressState>();
  const capacity = limits.perMinute ?? Infinity;
  const perMs = (limits.perMinute ?? 0) / 60_000;

  const refill = (s: AddressState, t: number) => {
    s.tokens = Math.min(capacity, s.tokens + (t - s.at) * perMs);
    s.at = t;
  };

  return {
    admit(key: string): Admission {
      const t = now();
      let s = state.get(key);
      if (!s) {
        s = { tokens: capacity, at: t, open: 0 };
        state.set(key, s);
      } else refill(s, t);
      if (s.tokens < 1) return { ok: false, reason: 'rate' };
      s.tokens -= 1;
      if (limits.maxPerAddress !== null && s.open >= limits.maxPerAddress)
        return { ok: false, reason: 'concurrency' };
      s.open++;
      const held = s;
      let released = false;
      return {
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          held.open--;
        },
      };
    },

    /**
     * Forgets addresses with nothing open and a full bucket: they are the same as unseen, so the
     * map holds only addresses active in about the last minute.
     */
    sweep(): void {
      const t = now();
      for (const [key, s] of state) {
        if (s.open > 0) continue;
        refill(s, t);
        if (s.tokens >= capacity) state.delete(key);
      }
    },

    /** Addresses tracked (for tests). */
    get size(): number {
      return state.size;
    },
  };
}
