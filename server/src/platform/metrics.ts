import http from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The process roles; `all` is the embedded process, which does every role's work. */
export type MetricsRole = 'api' | 'worker' | 'gateway' | 'sim' | 'all';

/** What the database pool reports (PostgreSQL's `pg` pool; PGlite has none). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Orders the settlement worker owes: past expiry and still open, or waiting for their entry tick. */
export interface SettlementBacklog {
  overdue: number;
  awaitingEntry: number;
}

/**
 * One Prometheus registry per process: the default process metrics (CPU, resident memory, heap,
 * event-loop delay) plus the product's own figures. Served by `metricsServer` on a private
 * port of its own (METRICS_PORT), never on the public one.
 *
 * Each role exports only the figures it fills (gateway: `gateway_*`; api: orders, HTTP,
 * settlement and the ledger check; worker: settlement; sim: `sim_*`; all: everything). A metric
 * of another role still exists as an object, so shared code may call it, but it is registered
 * nowhere and never exported.
 */
export function createMetrics(role: MetricsRole) {
  const registry = new Registry();
  registry.setDefaultLabels({ role });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const on = (...roles: MetricsRole[]) =>
    role === 'all' || roles.includes(role) ? [registry] : [];
  // Sources read when Prometheus scrapes (the `collect` of gauges below); set by `watch*`.
  let backlogSource: (() => Promise<SettlementBacklog>) | null = null;
  let poolSource: (() => PoolStats | null) | null = null;
  const redisSources = new Map<string, () => boolean>();
  let tapeSource: (() => { buffered: number; lastWriteMs: number | null }) | null = null;

  const metrics = {
    registry,
    role,
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
        this.set(tapeSource?.().buffered ?? 0);
      },
    }),
    tapeWriteAge: new Gauge({
      name: 'sim_tape_last_write_age_seconds',
      help: 'Seconds since the tape writer last wrote successfully (absent before its first write and on a standby)',
      registers: on('sim'),
      collect() {
        this.reset();
        const last = tapeSource?.().lastWriteMs;
        if (last != null) this.set((Date.now() - last) / 1000);
      },
    }),
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
    ledgerCheckOk: new Gauge({
      name: 'ledger_check_ok',
      help: 'Whether the last periodic ledger check passed (1) or found a problem or failed to run (0)',
      registers: on('api'),
    }),
    ledgerCheckLastRun: new Gauge({
      name: 'ledger_check_last_run_timestamp_seconds',
      help: 'When the periodic ledger check last ran (Unix time)',
      registers: on('api'),
    }),
    settled: new Counter({
      name: 'orders_settled_total',
      help: 'Orders settled, by result and mode',
      labelNames: ['status', 'mode'],
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
        if (!backlogSource) return;
        try {
          const b = await backlogSource();
          this.set({ kind: 'overdue' }, b.overdue);
          this.set({ kind: 'awaiting_entry' }, b.awaitingEntry);
        } catch {
          // The database is away: no figure rather than a stale one.
          this.reset();
        }
      },
    }),
    dbPool: new Gauge({
      name: 'db_pool_connections',
      help: 'The PostgreSQL pool: connections open (total), idle, and callers waiting for one',
      labelNames: ['state'],
      registers: on('api', 'worker', 'sim'),
      collect() {
        const s = poolSource?.();
        if (!s) return;
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
      },
    }),
    redisConnected: new Gauge({
      name: 'redis_connected',
      help: 'Whether each Redis connection of the process is ready (1) or not (0), by client',
      labelNames: ['client'],
      registers: on('api', 'worker', 'sim', 'gateway'),
      collect() {
        for (const [client, ready] of redisSources) this.set({ client }, ready() ? 1 : 0);
      },
    }),
    /** Counts orders owed by settlement when scraped (`countSettlementBacklog`). */
    watchSettlementBacklog(source: () => Promise<SettlementBacklog>) {
      backlogSource = source;
    },
    /** Reports the database pool when scraped (nothing for a database without a pool). */
    watchDbPool(source: () => PoolStats | null) {
      poolSource = source;
    },
    /** Reports a Redis connection's state when scraped, under `client` (bus, limiter, …). */
    watchRedis(client: string, ready: () => boolean) {
      redisSources.set(client, ready);
    },
    /** Reports the tape writer of the leading simulator (buffer, time since its last write). */
    watchTape(source: (() => { buffered: number; lastWriteMs: number | null }) | null) {
      tapeSource = source;
    },
  };
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

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
