import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

export interface Limiter {
  /** Points used in the current window (0 when none). */
  used(key: string): Promise<number>;
  /** Spends one point; false once the limit is passed. */
  hit(key: string): Promise<boolean>;
  reset(key: string): Promise<void>;
  /** Gives one point back (an attempt that turned out legitimate). */
  giveBack(key: string): Promise<void>;
  readonly points: number;
}

/**
 * Fixed-window counters from rate-limiter-flexible: in memory for one process (embedded), in
 * Redis when several api processes must share them.
 */
export function createLimiter(opts: {
  keyPrefix: string;
  points: number;
  durationSec: number;
  redis?: Redis;
}): Limiter {
  const base = { keyPrefix: opts.keyPrefix, points: opts.points, duration: opts.durationSec };
  const limiter: RateLimiterAbstract = opts.redis
    ? new RateLimiterRedis({ ...base, storeClient: opts.redis })
    : new RateLimiterMemory(base);
  return {
    points: opts.points,
    async used(key) {
      const res = await limiter.get(key);
      return res?.consumedPoints ?? 0;
    },
    async hit(key) {
      try {
        await limiter.consume(key);
        return true;
      } catch (err) {
        if (err instanceof RateLimiterRes) return false;
        throw err;
      }
    },
    async reset(key) {
      await limiter.delete(key);
    },
    async giveBack(key) {
      await limiter.reward(key, 1);
    },
  };
}
