import type { FeedOptions } from './feed-options';

/**
 * The feed's clock and the tape's watermark (tape_watermark): once live, every write says the
 * tape is complete through the moment it took its batch. Tick times never go below it, even if
 * the clock steps back.
 */
export interface FeedClock {
  now: () => number;
  /** Whether this simulator leads (always, without a lease): nothing is published otherwise. */
  leading: () => boolean;
  live: boolean;
  throughMs: number;
}

export function feedClock(o: FeedOptions): FeedClock {
  return {
    now: o.now ?? Date.now,
    leading: () => o.lease?.leading() ?? true,
    live: false,
    throughMs: 0,
  };
}

/** The time a tick made now gets: never at or under the watermark. */
export const tickTime = (clock: FeedClock) => Math.max(clock.now(), clock.throughMs + 1);
