import http from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One Prometheus registry per process: the default process metrics (CPU, resident memory, heap,
 * event-loop delay) plus the product's own figures. Served by `metricsServer` on a private
 * port of its own (METRICS_PORT), never on the public one.
 */
export function createMetrics(role: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ role });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  return {
    registry,
    sockets: new Gauge({
      name: 'gateway_connected_sockets',
      help: 'Connected Socket.IO clients',
      registers: [registry],
    }),
    deliveries: new Counter({
      name: 'gateway_deliveries_total',
      help: 'Messages handed to sockets (one per socket per broadcast)',
      labelNames: ['event'],
      registers: [registry],
    }),
    broadcasts: new Counter({
      name: 'gateway_broadcasts_total',
      help: 'Broadcasts (one per room per message)',
      labelNames: ['event'],
      registers: [registry],
    }),
    connectionsRefused: new Counter({
      name: 'gateway_connections_refused_total',
      help: 'Socket connections refused RATE_LIMITED, by limit (rate, concurrency) per client address',
      labelNames: ['reason'],
      registers: [registry],
    }),
    slowConsumers: new Counter({
      name: 'gateway_slow_consumers_total',
      help: 'Sockets whose send backlog passed a limit: conflated (market channels reduced to their newest message) or disconnected',
      labelNames: ['action'],
      registers: [registry],
    }),
    conflated: new Counter({
      name: 'gateway_conflated_messages_total',
      help: 'Market messages (ticks, snapshots) a slow socket never got because a newer one replaced them',
      registers: [registry],
    }),
    apiReachable: new Gauge({
      name: 'gateway_api_reachable',
      help: 'Whether the gateway reaches the api that checks socket tokens (1) or not (0: signed-in sockets are refused UNAVAILABLE)',
      registers: [registry],
    }),
    simLeader: new Gauge({
      name: 'sim_leader',
      help: 'Whether this simulator leads (1) or waits as a standby (0)',
      registers: [registry],
    }),
    simLeaseEpoch: new Gauge({
      name: 'sim_lease_epoch',
      help: "The simulator lease's epoch this process last led in (raised on every change of leader)",
      registers: [registry],
    }),
    placements: new Counter({
      name: 'orders_placed_total',
      help: 'Orders accepted, by mode (real, practice): practice volume is never revenue',
      labelNames: ['mode'],
      registers: [registry],
    }),
    refusals: new Counter({
      name: 'orders_refused_total',
      help: 'Orders refused, by error code and mode',
      labelNames: ['code', 'mode'],
      registers: [registry],
    }),
    settled: new Counter({
      name: 'orders_settled_total',
      help: 'Orders settled, by result and mode',
      labelNames: ['status', 'mode'],
      registers: [registry],
    }),
    settlementLag: new Histogram({
      name: 'settlement_lag_seconds',
      help: 'From an order expiry to its settlement',
      buckets: [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10],
      registers: [registry],
    }),
    entryLag: new Histogram({
      name: 'order_entry_lag_seconds',
      help: "From an order's entry tick to the entry written on the order",
      buckets: [0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 2, 5],
      registers: [registry],
    }),
  };
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
