import { randomBytes } from 'node:crypto';
import {
  holdsListener,
  startEntry,
  waitForHttp,
  type RunningProcess,
} from '@tests/support/processes';
import { stablePort } from '@tests/support/redis-server';
import { startFaultProxy, type FaultProxy } from '@tests/support/fault-proxy';
import { startBalancer } from '@tests/support/tcp-balancer';
import { startPgCluster, type PgCluster } from '@tests/support/pg-cluster';
import { startSentinelCluster, type SentinelCluster } from '@tests/support/redis-sentinel';
import { oneAddressSocketEnv } from '@tests/support/socket-limits';

/**
 * The scaled deployment of docs/OPERATIONS.md on real engines, for the chaos test: PostgreSQL
 * as a primary with a streaming replica (reached by a two-host URL, `target_session_attrs=
 * read-write`), Redis under three sentinels, two simulators (one leads), two apis, a worker and
 * two gateways, the apis and the gateways each behind a TCP balancer. Every process reaches each
 * database host through a fault proxy of its own, so the test can cut one process off.
 */
export type Role = 'sim' | 'api' | 'worker' | 'gateway';

export interface Member {
  name: string;
  role: Role;
  entry: string;
  port: number;
  env: Record<string, string>;
  /** Its own proxies in front of the primary and the replica. */
  dbProxies: FaultProxy[];
  proc: RunningProcess | null;
}

export interface ChaosCluster {
  pg: PgCluster;
  redis: SentinelCluster;
  members: Member[];
  apiUrl: string;
  gatewayUrl: string;
  operatorToken: string;
  /** A URL for the test's own reads (the ledger check), straight to both hosts. */
  directDbUrl: string;
  start(m: Member): Promise<void>;
  /** SIGKILL (a crash) or SIGTERM (a stop). */
  stop(m: Member, signal: NodeJS.Signals): Promise<void>;
  ready(m: Member): Promise<boolean>;
  close(): Promise<void>;
}

const roles: [string, Role, string][] = [
  ['sim1', 'sim', 'server/src/main/sim.ts'],
  ['sim2', 'sim', 'server/src/main/sim.ts'],
  ['api1', 'api', 'server/src/main/api.ts'],
  ['api2', 'api', 'server/src/main/api.ts'],
  ['worker', 'worker', 'server/src/main/worker.ts'],
  ['gateway1', 'gateway', 'server/src/main/gateway.ts'],
  ['gateway2', 'gateway', 'server/src/main/gateway.ts'],
];

export async function startChaosCluster(): Promise<ChaosCluster> {
  const pg = await startPgCluster();
  const redis = await startSentinelCluster();
  const operatorToken = `chaos-${randomBytes(12).toString('hex')}`;
  const ports = new Map<string, number>();
  // Below the ephemeral range: members start over minutes and are started again after a crash.
  for (const [name] of roles) ports.set(name, await stablePort());
  const apiBalancer = await startBalancer([ports.get('api1')!, ports.get('api2')!]);
  const gatewayBalancer = await startBalancer([ports.get('gateway1')!, ports.get('gateway2')!]);
  const apiUrl = `http://127.0.0.1:${apiBalancer.port}`;
  const common = {
    REDIS_URL: 'redis://sentinel-managed/0',
    REDIS_SENTINELS: redis.sentinels,
    REDIS_MASTER_NAME: redis.masterName,
    REDIS_NAMESPACE: 'chaos',
    OPERATOR_TOKEN: operatorToken,
    SIM_BACKFILL_HOURS: '1',
    SIM_HISTORY_DAYS: '0',
    SIM_LEASE_MS: '2000',
    // A partition is found by the statement timeout: short ones here.
    DATABASE_CONNECT_TIMEOUT_MS: '1000',
    DATABASE_STATEMENT_TIMEOUT_MS: '4000',
    SHUTDOWN_TIMEOUT_MS: '5000',
    LOG_LEVEL: 'warn',
    API_URL: apiUrl,
    ...oneAddressSocketEnv,
  };
  const members: Member[] = [];
  for (const [name, role, entry] of roles) {
    const dbProxies = [
      await startFaultProxy(pg.primary.port),
      await startFaultProxy(pg.replica.port),
    ];
    members.push({
      name,
      role,
      entry,
      port: ports.get(name)!,
      dbProxies,
      env: {
        ...common,
        PORT: String(ports.get(name)!),
        DATABASE_URL: pg.urlFor(dbProxies.map((p) => p.port)),
      },
      proc: null,
    });
  }
  const base = (m: Member) => `http://127.0.0.1:${m.port}`;
  const cluster: ChaosCluster = {
    pg,
    redis,
    members,
    apiUrl,
    gatewayUrl: `http://127.0.0.1:${gatewayBalancer.port}`,
    operatorToken,
    directDbUrl: pg.url,
    async start(m) {
      const proc = startEntry(m.entry, m.env);
      m.proc = proc;
      const failed = (why: string) =>
        new Error(`${m.name} on ${m.port}: ${why}\n${proc.output().slice(-3000)}`);
      await Promise.race([
        waitForHttp(`${base(m)}/healthz`, 200, 120_000).catch((err: Error) => {
          throw failed(err.message);
        }),
        proc.exited.then((code) => {
          throw failed(`exited (${code}) before it listened`);
        }),
      ]);
      if (!holdsListener(proc.child.pid ?? 0, m.port))
        throw failed('another process answered on its port');
    },
    async stop(m, signal) {
      await m.proc?.stop(signal);
      m.proc = null;
    },
    async ready(m) {
      try {
        return (await fetch(`${base(m)}/readyz`, { signal: AbortSignal.timeout(2000) })).ok;
      } catch {
        return false;
      }
    },
    async close() {
      await Promise.all(members.map((m) => m.proc?.stop('SIGKILL') ?? Promise.resolve()));
      for (const m of members) for (const p of m.dbProxies) await p.close();
      await apiBalancer.close();
      await gatewayBalancer.close();
      await redis.stop();
      await pg.stop();
    },
  };
  // The simulators first (one leads and writes the first history), then the rest together.
  await cluster.start(members[0]!);
  await cluster.start(members[1]!);
  await Promise.all(members.slice(2).map((m) => cluster.start(m)));
  for (const m of members)
    for (const deadline = Date.now() + 120_000; !(await cluster.ready(m));) {
      if (Date.now() > deadline)
        throw new Error(`${m.name} not ready: ${m.proc?.output().slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  return cluster;
}
