import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '@infra/logger';
import { failOpen } from './fail-open';

/** A burst of `burst` at once, then `perSecond` a second (tokens refill evenly). */
export interface BucketSpec {
  burst: number;
  perSecond: number;
}

export type Take = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Token buckets per key: `take` spends one token, or says how long until the next one. A
 * refused attempt spends nothing, so a client that waits the time it is told gets in.
 */
export interface TokenBuckets {
  take(key: string): Promise<Take>;
  readonly spec: BucketSpec;
}

/**
 * In this process (embedded) or in Redis (several api processes share each key's bucket). The
 * memory store costs a map lookup and some arithmetic; the Redis store one script call (EVALSHA)
 * per take. `now` is the clock the buckets refill by (tests pass a fake one); with Redis it is
 * each api process's wall clock, so those clocks must agree to well within a token's interval
 * (NTP does; a process that is behind only refills its callers' buckets a little later).
 */
export function createTokenBuckets(
  spec: BucketSpec,
  opts: { keyPrefix: string; redis?: Redis; now?: () => number },
): TokenBuckets {
  const now = opts.now ?? Date.now;
  const take = opts.redis
    ? redisTake(opts.redis, opts.keyPrefix, spec, now)
    : memoryTake(spec, now);
  return { take, spec };
}

/**
 * `buckets` that let a take through when their store cannot answer (Redis away), saying so in
 * the log at most once a minute (fail-open.ts).
 */
export function failingOpen(
  buckets: TokenBuckets,
  opts: { name: string; log?: Pick<Logger, 'warn'> },
): TokenBuckets {
  const storeFailed = failOpen(opts.name, opts.log);
  return {
    spec: buckets.spec,
    take: (key) =>
      buckets.take(key).catch((err: unknown) => {
        storeFailed(err);
        return { ok: true } as const;
      }),
  };
}

/** Milliseconds until `tokens` (below 1) has grown to 1 at `perMs` tokens a millisecond. */
const waitFor = (tokens: number, perMs: number) => Math.max(1, Math.ceil((1 - tokens) / perMs));

function memoryTake(spec: BucketSpec, now: () => number) {
  const perMs = spec.perSecond / 1000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  // A full bucket is the same as none: forgotten at the next sweep (at most once a minute, on a
  // take), so the map holds only the keys active in about the last minute.
  const fullAfterMs = spec.burst / perMs;
  let sweptAt = now();
  const sweep = (t: number) => {
    sweptAt = t;
    for (const [key, b] of buckets)
      if (b.tokens + (t - b.at) * perMs >= spec.burst) buckets.delete(key);
  };
  return (key: string): Promise<Take> => {
    const t = now();
    if (t - sweptAt > Math.max(60_000, fullAfterMs)) sweep(t);
    let b = buckets.get(key);
    if (!b) buckets.set(key, (b = { tokens: spec.burst, at: t }));
    else if (t > b.at) {
      b.tokens = Math.min(spec.burst, b.tokens + (t - b.at) * perMs);
      b.at = t;
    }
    if (b.tokens < 1) return Promise.resolve({ ok: false, retryAfterMs: waitFor(b.tokens, perMs) });
    b.tokens -= 1;
    return Promise.resolve({ ok: true });
  };
}

/**
 * One bucket a hash (`tokens`, `at`), read, refilled and spent in one script, so two api
 * processes never both spend a last token. Answers 0 (taken) or the wait in ms. The key expires
 * once the bucket would be full again: an idle user costs Redis nothing.
 */
const takeScript = `
local burst = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1])
local at = tonumber(b[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
elseif now > at then
  tokens = math.min(burst, tokens + (now - at) * perMs)
  at = now
end
if tokens < 1 then
  return math.max(1, math.ceil((1 - tokens) / perMs))
end
tokens = tokens - 1
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(at))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / perMs) + 1000)
return 0`;
const takeSha = createHash('sha1').update(takeScript).digest('hex');

function redisTake(redis: Redis, prefix: string, spec: BucketSpec, now: () => number) {
  const perMs = spec.perSecond / 1000;
  return async (key: string): Promise<Take> => {
    const args = [`${prefix}:${key}`, spec.burst, perMs, now()] as const;
    let wait: unknown;
    try {
      wait = await redis.evalsha(takeSha, 1, ...args);
    } catch (err) {
      // The script is not cached on this server yet (first use, or Redis restarted): send it.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      wait = await redis.eval(takeScript, 1, ...args);
    }
    const ms = Number(wait);
    return ms > 0 ? { ok: false, retryAfterMs: ms } : { ok: true };
  };
}
