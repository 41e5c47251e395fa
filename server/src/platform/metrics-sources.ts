import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * What every family of metrics stands on: which registry a metric goes to (by role), and what
 * the scrape-time gauges read. Beside them the process's own connections (the database pool and
 * each Redis client) and the `watch*` methods that hand those gauges their sources.
 */

/** The process roles; `all` is the embedded process, which does every role's work. */
export type MetricsRole = 'api' | 'worker' | 'gateway' | 'sim' | 'watcher' | 'all';

/** What the database pool reports (PostgreSQL's `pg` pool; PGlite has none). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * How often the pool's waiting callers are sampled for `db_pool_wait_seconds_total`: between
 * scrapes, from a timer of its own. A reading at scrape time would see the scrape's own backlog
 * query queued for an idle connection (pg hands an idle client over on the next tick), so it
 * read 1 on every scrape of an idle process; a timer's callback runs after those ticks.
 */
export const POOL_SAMPLE_MS = 100;

/** Orders the settlement worker owes: past expiry and still open, or waiting for their entry tick. */
export interface SettlementBacklog {
  overdue: number;
  awaitingEntry: number;
}

/** Registers a metric on the process's registry when its role fills the metric, else nowhere. */
export type On = (...roles: MetricsRole[]) => Registry[];

/** What the tape writer of the leading simulator reports (`watchTape`). */
type TapeSource = () => { buffered: number; lastWriteMs: number | null };

/**
 * What the gauges read when Prometheus scrapes (their `collect`), set by the `watch*` methods:
 * held in one object so the families and the watchers share it explicitly.
 */
export interface ScrapeSources {
  backlog: (() => Promise<SettlementBacklog>) | null;
  pool: (() => PoolStats | null) | null;
  poolSampler: NodeJS.Timeout | null;
  redis: Map<string, () => boolean>;
  tape: TapeSource | null;
}

/** The process's connections: the PostgreSQL pool and each Redis client. */
export function connectionMetrics(on: On, sources: ScrapeSources) {
  return {
    dbPool: new Gauge({
      name: 'db_pool_connections',
      help: 'The PostgreSQL pool: connections open (total) and idle, when scraped (callers waiting: db_pool_wait_seconds_total)',
      labelNames: ['state'],
      registers: on('api', 'worker', 'sim', 'watcher'),
      collect() {
        const s = sources.pool?.();
        if (!s) return;
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
      },
    }),
    dbPoolWait: new Counter({
      name: 'db_pool_wait_seconds_total',
      help: `Time callers spent waiting for a PostgreSQL pool connection, summed over the callers (sampled every ${POOL_SAMPLE_MS} ms, between scrapes): rate() is how many wait on average`,
      registers: on('api', 'worker', 'sim', 'watcher'),
    }),
    redisConnected: new Gauge({
      name: 'redis_connected',
      help: 'Whether each Redis connection of the process is ready (1) or not (0), by client',
      labelNames: ['client'],
      registers: on('api', 'worker', 'sim', 'gateway', 'watcher'),
      collect() {
        for (const [client, ready] of sources.redis) this.set({ client }, ready() ? 1 : 0);
      },
    }),
  };
}

/** The `watch*` methods: they hand the scrape-time gauges their sources. */
export function sourceWatchers(sources: ScrapeSources, dbPoolWait: Counter) {
  return {
    /** Counts orders owed by settlement when scraped (`countSettlementBacklog`). */
    watchSettlementBacklog(source: () => Promise<SettlementBacklog>) {
      sources.backlog = source;
    },
    /**
     * Reports the database pool (nothing for a database without a pool): its connections when
     * scraped, and the callers waiting for one sampled every POOL_SAMPLE_MS into
     * `db_pool_wait_seconds_total` (each sample counts the waiting callers for the time since the
     * one before, at most a second: a stalled event loop is not charged to the pool).
     */
    watchDbPool(source: () => PoolStats | null) {
      sources.pool = source;
      if (sources.poolSampler) clearInterval(sources.poolSampler);
      let last = performance.now();
      sources.poolSampler = setInterval(() => {
        const now = performance.now();
        const waiting = sources.pool?.()?.waiting ?? 0;
        if (waiting > 0) dbPoolWait.inc((waiting * Math.min(now - last, 1000)) / 1000);
        last = now;
      }, POOL_SAMPLE_MS);
      sources.poolSampler.unref();
    },
    /** Reports a Redis connection's state when scraped, under `client` (bus, limiter, …). */
    watchRedis(client: string, ready: () => boolean) {
      sources.redis.set(client, ready);
    },
    /** Reports the tape writer of the leading simulator (buffer, time since its last write). */
    watchTape(source: TapeSource | null) {
      sources.tape = source;
    },
  };
}
