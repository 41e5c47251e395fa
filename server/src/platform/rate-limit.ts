import { isIPv6 } from 'node:net';
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
  /**
   * Spends one point and says how many the window has used, this one included: past `points` it
   * was refused, and `points + 1` is the first refusal of the window (the moment of a lock-out).
   */
  spend(key: string): Promise<number>;
  /**
   * Spends one point, as `hit`; when the limit is passed, says how long until the window ends
   * (what a refusal's Retry-After tells the client).
   */
  take(key: string): Promise<{ ok: true } | { ok: false; retryAfterMs: number }>;
  reset(key: string): Promise<void>;
  /** Gives one point back (an attempt that turned out legitimate). */
  giveBack(key: string): Promise<void>;
  readonly points: number;
}

/** How many points a limiter has per window of how many seconds. */
export interface LimitSpec {
  points: number;
  durationSec: number;
}

/**
 * Fixed-window counters from rate-limiter-flexible: in memory for one process (embedded), in
 * Redis when several api processes must share them.
 */
export function createLimiter(opts: LimitSpec & { keyPrefix: string; redis?: Redis }): Limiter {
  const base = { keyPrefix: opts.keyPrefix, points: opts.points, duration: opts.durationSec };
  // While Redis cannot answer, the counts are this process's own (rate-limiter-flexible's
  // insurance limiter): the limit holds per process instead of failing every request.
  const limiter: RateLimiterAbstract = opts.redis
    ? new RateLimiterRedis({
        ...base,
        storeClient: opts.redis,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(base),
      })
    : new RateLimiterMemory(base);
  const spend = async (key: string) => {
    try {
      return (await limiter.consume(key)).consumedPoints;
    } catch (err) {
      if (err instanceof RateLimiterRes) return err.consumedPoints;
      throw err;
    }
  };
  return {
    points: opts.points,
    async used(key) {
      const res = await limiter.get(key);
      return res?.consumedPoints ?? 0;
    },
    hit: async (key) => (await spend(key)) <= opts.points,
    spend,
    async take(key) {
      try {
        await limiter.consume(key);
        return { ok: true };
      } catch (err) {
        if (err instanceof RateLimiterRes)
          return { ok: false, retryAfterMs: Math.max(1, Math.ceil(err.msBeforeNext)) };
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

/** One limiter per entry of `specs`, each under its own key prefix. */
export function createLimiters<K extends string>(
  specs: Record<K, LimitSpec>,
  opts: { keyPrefix: string; redis?: Redis },
): Record<K, Limiter> {
  const entries = Object.entries<LimitSpec>(specs).map(([name, spec]) => [
    name,
    createLimiter({ ...spec, keyPrefix: `${opts.keyPrefix}:${name}`, redis: opts.redis }),
  ]);
  return Object.fromEntries(entries) as Record<K, Limiter>;
}

/**
 * The key a client address is throttled under. An IPv6 host usually holds a whole /64 and can
 * pick a new address in it for every request, so IPv6 addresses count by their /64; IPv4 ones
 * (also when written IPv4-mapped, `::ffff:1.2.3.4`) by the address.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail never reaches the first four groups; only its presence matters here.
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
