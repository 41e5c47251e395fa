import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { LimitSpec } from './rate-limit';

/**
 * A limit on wrong passwords that never refuses a check which may still fit (DECISIONS.md,
 * Accounts: confirmation passwords).
 *
 * Per key it counts wrong checks in the window and checks under way. A check starts only while
 * wrong + under way < points, so checks sent at once run at most `points` password
 * verifications before the count is known: each one under way might be wrong. When that sum is
 * reached while checks are still under way, a new check waits for them instead of being refused:
 * a right password ends without counting and clears the wrong ones, which makes room. Refused only
 * once the wrong checks alone fill the limit.
 */
export interface CheckLimiter {
  /**
   * Runs `check` (true: the password was right) once the key has room; null when refused. A
   * check that throws counts as neither right nor wrong. `onFilled` is called when this check's
   * wrong answer filled the limit: the moment the key is locked out (once per lock-out).
   */
  run(key: string, check: () => Promise<boolean>, onFilled?: () => void): Promise<boolean | null>;
  readonly points: number;
}

type Outcome = 'right' | 'wrong' | 'none';

/** Where the counts live: this process, or Redis for several api processes. */
interface CheckStore {
  /** `start`: the ticket is under way; `wait`: full, with checks under way; `refuse`: full of wrong. */
  begin(key: string, ticket: string): Promise<'start' | 'wait' | 'refuse'>;
  /** Ends the ticket; the key's wrong checks in the window after it. */
  end(key: string, ticket: string, outcome: Outcome): Promise<number>;
  /** Changes elsewhere are seen by asking again, this often at most (ms); none for memory. */
  readonly pollMs?: number;
}

/**
 * Redis, and this process's own counts while Redis cannot answer (down, failing over): the limit
 * then holds per process instead of per deployment, and no check fails for want of Redis. A
 * ticket ends in the store it began in.
 */
function withFallback(redis: CheckStore, memory: CheckStore): CheckStore {
  const inMemory = new Set<string>();
  return {
    pollMs: redis.pollMs,
    async begin(key, ticket) {
      try {
        return await redis.begin(key, ticket);
      } catch {
        inMemory.add(ticket);
        return memory.begin(key, ticket);
      }
    },
    async end(key, ticket, outcome) {
      if (inMemory.delete(ticket)) return memory.end(key, ticket, outcome);
      try {
        return await redis.end(key, ticket, outcome);
      } catch {
        // Redis went away during the check: its ticket expires there by itself (TICKET_TTL_MS).
        return 0;
      }
    },
  };
}

/** How long a ticket counts as under way at most: a process that died mid-check frees it then. */
const TICKET_TTL_MS = 30_000;

export function createCheckLimiter(
  opts: LimitSpec & { keyPrefix: string; redis?: Redis },
): CheckLimiter {
  const store = opts.redis
    ? withFallback(
        redisStore(opts.redis, opts.keyPrefix, opts),
        memoryStore(opts.points, opts.durationSec * 1000),
      )
    : memoryStore(opts.points, opts.durationSec * 1000);
  // Checks of this process that end wake the waiters of their key at once, whatever the store.
  const waiters = new Map<string, Set<() => void>>();
  const ended = (key: string) => {
    const woken = waiters.get(key);
    waiters.delete(key);
    woken?.forEach((wake) => wake());
  };
  /** Settles at the next end of a check of `key` here, or after `ms`; `cancel` settles it now. */
  const nextEnd = (key: string, ms: number | undefined) => {
    const set = waiters.get(key) ?? new Set<() => void>();
    waiters.set(key, set);
    let wake = () => {};
    const settled = new Promise<void>((resolve) => {
      wake = () => {
        clearTimeout(timer);
        set.delete(wake);
        if (!set.size && waiters.get(key) === set) waiters.delete(key);
        resolve();
      };
    });
    const timer = ms === undefined ? undefined : setTimeout(wake, ms);
    set.add(wake);
    return { settled, cancel: wake };
  };

  return {
    points: opts.points,
    async run(key, check, onFilled) {
      const ticket = randomBytes(12).toString('base64url');
      const giveUpAt = Date.now() + TICKET_TTL_MS;
      const poll = store.pollMs;
      for (let delay = Math.min(5, poll ?? 5); ; delay = Math.min(delay * 2, poll ?? delay)) {
        // Listening before asking: an end between the answer and the wait is not missed.
        const next = nextEnd(key, poll === undefined ? undefined : delay);
        let state: Awaited<ReturnType<CheckStore['begin']>>;
        try {
          state = await store.begin(key, ticket);
        } catch (err) {
          next.cancel();
          throw err;
        }
        if (state === 'wait' && Date.now() <= giveUpAt) {
          // Until a check ends here or (Redis) it is time to ask again.
          await next.settled;
          continue;
        }
        next.cancel();
        if (state === 'start') break;
        return null;
      }
      let outcome: Outcome = 'none';
      try {
        const ok = await check();
        outcome = ok ? 'right' : 'wrong';
        return ok;
      } finally {
        const wrong = await store.end(key, ticket, outcome);
        ended(key);
        // Checks start only while wrong + under way < points, so exactly one wrong check of a
        // window brings the count to `points`.
        if (outcome === 'wrong' && wrong === opts.points) onFilled?.();
      }
    },
  };
}

function memoryStore(points: number, windowMs: number): CheckStore {
  interface Entry {
    wrong: number;
    windowEnds: number;
    underWay: Set<string>;
  }
  const entries = new Map<string, Entry>();
  const entryOf = (key: string, now: number) => {
    let e = entries.get(key);
    if (e && e.wrong && now >= e.windowEnds) e.wrong = 0;
    if (!e) entries.set(key, (e = { wrong: 0, windowEnds: 0, underWay: new Set() }));
    return e;
  };
  const forgetIfIdle = (key: string, e: Entry) => {
    if (!e.wrong && !e.underWay.size && entries.get(key) === e) entries.delete(key);
  };
  return {
    begin(key, ticket) {
      const e = entryOf(key, Date.now());
      if (e.wrong + e.underWay.size < points) {
        e.underWay.add(ticket);
        return Promise.resolve('start');
      }
      return Promise.resolve(e.underWay.size ? 'wait' : 'refuse');
    },
    end(key, ticket, outcome) {
      const now = Date.now();
      const e = entryOf(key, now);
      e.underWay.delete(ticket);
      if (outcome === 'right') e.wrong = 0;
      if (outcome === 'wrong' && e.wrong++ === 0) {
        e.windowEnds = now + windowMs;
        // Forget the entry once its window is over, unless it is in use again by then.
        setTimeout(() => {
          if (Date.now() >= e.windowEnds) e.wrong = 0;
          forgetIfIdle(key, e);
        }, windowMs).unref();
      }
      forgetIfIdle(key, e);
      return Promise.resolve(e.wrong);
    },
  };
}

/**
 * Both counts in Redis, changed by scripts so that each step is atomic across processes: the
 * wrong checks as a counter that expires with its window, the checks under way as a sorted set
 * of tickets scored by when they stop counting (TICKET_TTL_MS).
 */
const beginScript = `
local now = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local wrong = tonumber(redis.call('GET', KEYS[1]) or '0')
local underWay = redis.call('ZCARD', KEYS[2])
if wrong + underWay < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), ARGV[3])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
  return 'start'
end
if underWay > 0 then return 'wait' end
return 'refuse'`;

const endScript = `
redis.call('ZREM', KEYS[2], ARGV[1])
if ARGV[2] == 'right' then
  redis.call('DEL', KEYS[1])
elseif ARGV[2] == 'wrong' then
  local wrong = redis.call('INCR', KEYS[1])
  if wrong == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
  return wrong
end
return tonumber(redis.call('GET', KEYS[1]) or '0')`;

function redisStore(redis: Redis, prefix: string, spec: LimitSpec): CheckStore {
  const keys = (key: string) => [`${prefix}:wrong:${key}`, `${prefix}:under-way:${key}`];
  return {
    // Other processes' checks end unseen here; ask again within this long.
    pollMs: 50,
    async begin(key, ticket) {
      const [wrong, underWay] = keys(key);
      const state = await redis.eval(
        beginScript,
        2,
        wrong!,
        underWay!,
        spec.points,
        Date.now(),
        ticket,
        TICKET_TTL_MS,
      );
      return state as 'start' | 'wait' | 'refuse';
    },
    async end(key, ticket, outcome) {
      const [wrong, underWay] = keys(key);
      const count = await redis.eval(
        endScript,
        2,
        wrong!,
        underWay!,
        ticket,
        outcome,
        spec.durationSec * 1000,
      );
      return Number(count);
    },
  };
}
