import http from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

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

/**
 * A gauge without labels that exports no sample until it is first set (prom-client starts one
 * at 0, which would look like a real reading: a failed ledger check, a tape just written).
 */
function unsetUntilSet<G extends Gauge>(gauge: G): G {
  gauge.remove();
  return gauge;
}

/** Orders the settlement worker owes: past expiry and still open, or waiting for their entry tick. */
export interface SettlementBacklog {
  overdue: number;
  awaitingEntry: number;
}

/** Registers a metric on the process's registry when its role fills the metric, else nowhere. */
type On = (...roles: MetricsRole[]) => Registry[];

/** What the tape writer of the leading simulator reports (`watchTape`). */
type TapeSource = () => { buffered: number; lastWriteMs: number | null };

/**
 * What the gauges read when Prometheus scrapes (their `collect`), set by the `watch*` methods:
 * held in one object so the groups below and the watchers share it explicitly.
 */
interface ScrapeSources {
  backlog: (() => Promise<SettlementBacklog>) | null;
  pool: (() => PoolStats | null) | null;
  poolSampler: NodeJS.Timeout | null;
  redis: Map<string, () => boolean>;
  tape: TapeSource | null;
}

/** The gateway's sockets, broadcasts and admissions. */
function gatewayMetrics(on: On) {
  return {
    sockets: new Gauge({
      name: 'gateway_connected_sockets',
      help: 'Connected Socket.IO clients',
      registers: on('gateway'),
    }),
    deliveries: new Counter({
      name: 'gateway_deliveries_total',
      help: 'Messages handed to sockets (one per socket per broadcast)',
      labelNames: ['event'],
      registers: on('gateway'),
    }),
    broadcasts: new Counter({
      name: 'gateway_broadcasts_total',
      help: 'Broadcasts (one per room per message)',
      labelNames: ['event'],
      registers: on('gateway'),
    }),
    connectionsRefused: new Counter({
      name: 'gateway_connections_refused_total',
      help: 'Socket connections refused RATE_LIMITED, by limit (rate, concurrency) per client address',
      labelNames: ['reason'],
      registers: on('gateway'),
    }),
    admissions: new Counter({
      name: 'gateway_socket_admissions_total',
      help: 'Signed-in sockets admitted, by what vouched for the session: a socket ticket (no api call) or the token (checked by the api)',
      labelNames: ['by'],
      registers: on('gateway'),
    }),
    slowConsumers: new Counter({
      name: 'gateway_slow_consumers_total',
      help: 'Sockets whose send backlog passed a limit: conflated (market channels reduced to their newest message) or disconnected',
      labelNames: ['action'],
      registers: on('gateway'),
    }),
    conflated: new Counter({
      name: 'gateway_conflated_messages_total',
      help: 'Market messages (ticks, snapshots) a slow socket never got because a newer one replaced them',
      registers: on('gateway'),
    }),
    apiReachable: new Gauge({
      name: 'gateway_api_reachable',
      help: 'Whether the gateway reaches the api that checks socket tokens (1) or not (0: signed-in sockets are refused UNAVAILABLE)',
      registers: on('gateway'),
    }),
  };
}

/** The simulator: its lease, the feed's rhythm and the tape writer. */
function simMetrics(on: On, sources: ScrapeSources) {
  return {
    simLeader: new Gauge({
      name: 'sim_leader',
      help: 'Whether this simulator leads (1) or waits as a standby (0)',
      registers: on('sim'),
    }),
    simLeaseEpoch: new Gauge({
      name: 'sim_lease_epoch',
      help: "The simulator lease's epoch this process last led in (raised on every change of leader)",
      registers: on('sim'),
    }),
    simTickGaps: new Histogram({
      name: 'sim_tick_gap_seconds',
      help: "Time between consecutive ticks of an open product (the feed's rhythm; a gap past MAX_FEED_DELAY_MS voids orders)",
      labelNames: ['product'],
      buckets: [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 30],
      registers: on('sim'),
    }),
    simTicks: new Counter({
      name: 'sim_ticks_total',
      help: 'Ticks emitted, by product (rate() gives ticks per second)',
      labelNames: ['product'],
      registers: on('sim'),
    }),
    tapeBuffered: new Gauge({
      name: 'sim_tape_buffered_ticks',
      help: 'Ticks published but not yet written to the tape (grows while the database is away)',
      registers: on('sim'),
      collect() {
        this.set(sources.tape?.().buffered ?? 0);
      },
    }),
    tapeWriteAge: new Gauge({
      name: 'sim_tape_last_write_age_seconds',
      help: 'Seconds since the tape writer last wrote successfully (absent before its first write and on a standby)',
      registers: on('sim'),
      collect() {
        // Not reset(): that sets an unlabelled gauge to 0, "just written".
        this.remove();
        const last = sources.tape?.().lastWriteMs;
        if (last != null) this.set((Date.now() - last) / 1000);
      },
    }),
  };
}

/** Orders placed and refused by the api, and its HTTP requests. */
function apiMetrics(on: On) {
  return {
    placements: new Counter({
      name: 'orders_placed_total',
      help: 'Orders accepted, by mode (real, practice): practice volume is never revenue',
      labelNames: ['mode'],
      registers: on('api'),
    }),
    refusals: new Counter({
      name: 'orders_refused_total',
      help: 'Orders refused, by error code and mode',
      labelNames: ['code', 'mode'],
      registers: on('api'),
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests of the api, by method, route pattern (never the raw path) and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: on('api'),
    }),
  };
}

/**
 * The api's periodic ledger check. Both gauges are absent until the process's first check has
 * run: a fresh api has no verdict yet, and a 0 would page LedgerCheckFailing on every restart.
 */
function ledgerCheckMetrics(on: On) {
  return {
    ledgerCheckOk: unsetUntilSet(
      new Gauge({
        name: 'ledger_check_ok',
        help: 'Whether the last periodic ledger check passed (1) or found a problem or failed to run (0); absent before the first check',
        registers: on('api'),
      }),
    ),
    ledgerCheckLastRun: unsetUntilSet(
      new Gauge({
        name: 'ledger_check_last_run_timestamp_seconds',
        help: 'When the periodic ledger check last ran (Unix time); absent before the first check',
        registers: on('api'),
      }),
    ),
  };
}

/** Settlement, by whichever process runs the worker (the api or a worker of its own). */
function settlementMetrics(on: On, sources: ScrapeSources) {
  return {
    settled: new Counter({
      name: 'orders_settled_total',
      help: 'Orders settled, by result, mode and product (voids for want of an entry tick included)',
      labelNames: ['status', 'mode', 'product'],
      registers: on('api', 'worker'),
    }),
    voided: new Counter({
      name: 'orders_voided_total',
      help: 'Orders void with their stake refunded, by reason (FEED_STALE, NO_ENTRY_TICK), product and mode',
      labelNames: ['reason', 'product', 'mode'],
      registers: on('api', 'worker'),
    }),
    settlementLag: new Histogram({
      name: 'settlement_lag_seconds',
      help: 'From an order expiry to its settlement',
      buckets: [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10],
      registers: on('api', 'worker'),
    }),
    entryLag: new Histogram({
      name: 'order_entry_lag_seconds',
      help: "From an order's entry tick to the entry written on the order",
      buckets: [0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 2, 5],
      registers: on('api', 'worker'),
    }),
    settlementBacklog: new Gauge({
      name: 'settlement_backlog_orders',
      help: 'Open orders the settlement worker owes, by kind: overdue (past expiry) or awaiting_entry (no entry tick written yet)',
      labelNames: ['kind'],
      registers: on('api', 'worker'),
      async collect() {
        if (!sources.backlog) return;
        try {
          const b = await sources.backlog();
          this.set({ kind: 'overdue' }, b.overdue);
          this.set({ kind: 'awaiting_entry' }, b.awaitingEntry);
        } catch {
          // The database is away: no figure rather than a stale one.
          this.reset();
        }
      },
    }),
  };
}

/** The process's connections: the PostgreSQL pool and each Redis client. */
function connectionMetrics(on: On, sources: ScrapeSources) {
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

/** The chain watchers (docs/OPERATIONS.md, USDT deposits by address), by network. */
function chainMetrics(on: On) {
  return {
    chainHead: new Gauge({
      name: 'chain_head_block',
      help: 'The newest block the network’s node reported in the last round',
      labelNames: ['network'],
      registers: on('watcher'),
    }),
    chainLag: new Gauge({
      name: 'chain_unread_blocks',
      help: 'Blocks between the head and the last block read (0 when the watcher keeps up)',
      labelNames: ['network'],
      registers: on('watcher'),
    }),
    chainConfirming: new Gauge({
      name: 'chain_confirming_deposits',
      help: 'Deposits seen on chain and waiting for their confirmations (the confirmations backlog)',
      labelNames: ['network'],
      registers: on('watcher'),
    }),
    chainDeposits: new Counter({
      name: 'chain_deposits_total',
      help: 'Chain deposits by outcome: credited, held (for an operator), dropped (left the chain before confirmed)',
      labelNames: ['network', 'outcome'],
      registers: on('watcher'),
    }),
    chainRoundFailures: new Counter({
      name: 'chain_round_failures_total',
      help: 'Watcher rounds that failed (node or database unreachable); the next round retries',
      labelNames: ['network'],
      registers: on('watcher'),
    }),
    chainLastRound: new Gauge({
      name: 'chain_last_round_timestamp_seconds',
      help: 'When the leading watcher last completed a round',
      labelNames: ['network'],
      registers: on('watcher'),
    }),
    chainLeading: new Gauge({
      name: 'chain_watcher_leading',
      help: 'Whether this process is the network’s active watcher (1) or a standby (0)',
      labelNames: ['network'],
      registers: on('watcher'),
    }),
  };
}

/** The `watch*` methods: they hand the scrape-time gauges their sources. */
function sourceWatchers(sources: ScrapeSources, dbPoolWait: Counter) {
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

/**
 * One Prometheus registry per process: the default process metrics (CPU, resident memory, heap,
 * event-loop delay) plus the product's own figures, built group by group above. Served by
 * `metricsServer` on a private port of its own (METRICS_PORT), never on the public one.
 *
 * Each role exports only the figures it fills (gateway: `gateway_*`; api: orders, HTTP,
 * settlement and the ledger check; worker: settlement; sim: `sim_*`; all: everything). A metric
 * of another role still exists as an object, so shared code may call it, but it is registered
 * nowhere and never exported.
 */
export function createMetrics(
  role: MetricsRole,
  {
    process: processLabel,
  }: {
    /**
     * One of several processes behind one scrape target (GATEWAY_PROCESSES: the worker's slot,
     * 1…N): every series carries it as `process`, so the cluster's aggregation keeps each
     * process's figures apart instead of summing or averaging them (one worker's 0 under
     * another's 1 would read as 1, or 0.5).
     */
    process?: string;
  } = {},
) {
  const registry = new Registry();
  registry.setDefaultLabels(
    processLabel === undefined ? { role } : { role, process: processLabel },
  );
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const on: On = (...roles) => (role === 'all' || roles.includes(role) ? [registry] : []);
  const sources: ScrapeSources = {
    backlog: null,
    pool: null,
    poolSampler: null,
    redis: new Map(),
    tape: null,
  };
  // Built in this order so the scrape lists the groups as it always has.
  const gateway = gatewayMetrics(on);
  const sim = simMetrics(on, sources);
  const api = apiMetrics(on);
  const ledgerCheck = ledgerCheckMetrics(on);
  const settlement = settlementMetrics(on, sources);
  const connections = connectionMetrics(on, sources);
  const chain = chainMetrics(on);
  return {
    registry,
    role,
    ...gateway,
    ...sim,
    ...api,
    ...ledgerCheck,
    ...settlement,
    ...connections,
    ...chain,
    ...sourceWatchers(sources, connections.dbPoolWait),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The gateway cluster's primary (GATEWAY_PROCESSES > 1), which runs no gateway: what only it
 * knows, each worker slot (`process`, 1…N, the label its worker's own series carry) and whether
 * a worker holds it. A dead worker's own series simply vanish from the scrape; this says so.
 * Served after the workers' figures on the same /metrics.
 */
export function createGatewayPrimaryMetrics() {
  const registry = new Registry();
  registry.setDefaultLabels({ role: 'gateway' });
  return {
    registry,
    processUp: new Gauge({
      name: 'gateway_process_up',
      help: 'Whether the worker process of each slot (process) is listening (1) or dead, or starting (0)',
      labelNames: ['process'],
      registers: [registry],
    }),
    processRestarts: new Counter({
      name: 'gateway_process_restarts_total',
      help: 'Worker processes the primary started again after one died, by slot (process)',
      labelNames: ['process'],
      registers: [registry],
    }),
  };
}

/**
 * The private listener: GET /metrics and nothing else. It is a server of its own, not a route on
 * the public app, so no balancer rule or forgotten proxy path can expose it (DECISIONS.md,
 * Metrics); Prometheus scrapes it on the internal network.
 */
export function metricsServer(source: {
  metrics(): Promise<string>;
  contentType: string;
}): http.Server {
  return http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    source.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': source.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(err)}\n`);
      },
    );
  });
}
