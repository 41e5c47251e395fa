import http from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import {
  connectionMetrics,
  sourceWatchers,
  type MetricsRole,
  type On,
  type ScrapeSources,
} from './metrics-sources';
import {
  apiMetrics,
  chainMetrics,
  gatewayMetrics,
  ledgerCheckMetrics,
  settlementMetrics,
  simMetrics,
} from './metrics-families';

export type { MetricsRole } from './metrics-sources';

/**
 * One Prometheus registry per process: the default process metrics (CPU, resident memory, heap,
 * event-loop delay) plus the product's own figures, built family by family (metrics-families.ts,
 * metrics-sources.ts). Served by `metricsServer` on a private port of its own (METRICS_PORT),
 * never on the public one.
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
