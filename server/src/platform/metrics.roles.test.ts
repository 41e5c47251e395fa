import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { openTestDb, type TestDb } from '@tests/support/db';
import { bulkOrders, bulkUsers, expireAllAt } from '@tests/support/bulk-orders';
import { countSettlementBacklog } from '@server/modules/orders/orders.repo';
import { startLedgerCheckJob } from '@server/modules/ledger/ledger-check.job';
import { createGatewayPrimaryMetrics, createMetrics, type MetricsRole } from './metrics';

/** The metric names a registry exports, read from its scrape text (`# TYPE name kind`). */
async function exported(role: MetricsRole): Promise<Set<string>> {
  const text = await createMetrics(role).registry.metrics();
  return new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
}

const own: Record<Exclude<MetricsRole, 'all'>, string[]> = {
  api: [
    'http_request_duration_seconds',
    'orders_placed_total',
    'orders_refused_total',
    'orders_settled_total',
    'settlement_lag_seconds',
    'settlement_backlog_orders',
    'ledger_check_ok',
    'ledger_check_last_run_timestamp_seconds',
    'db_pool_connections',
    'db_pool_wait_seconds_total',
    'redis_connected',
  ],
  worker: [
    'orders_settled_total',
    'settlement_lag_seconds',
    'order_entry_lag_seconds',
    'settlement_backlog_orders',
    'db_pool_connections',
    'db_pool_wait_seconds_total',
    'redis_connected',
  ],
  gateway: ['gateway_connected_sockets', 'gateway_deliveries_total', 'gateway_api_reachable'],
  sim: [
    'sim_ticks_total',
    'sim_leader',
    'sim_lease_epoch',
    'sim_tape_buffered_ticks',
    'sim_tape_last_write_age_seconds',
    'db_pool_connections',
    'db_pool_wait_seconds_total',
  ],
  watcher: [
    'chain_head_block',
    'chain_unread_blocks',
    'chain_confirming_deposits',
    'chain_deposits_total',
    'chain_round_failures_total',
    'chain_last_round_timestamp_seconds',
    'chain_watcher_leading',
    'db_pool_connections',
  ],
};
const foreign: Record<Exclude<MetricsRole, 'all'>, RegExp> = {
  api: /^(gateway_|sim_|chain_)/,
  worker: /^(gateway_|sim_|http_|orders_placed|orders_refused|ledger_check)/,
  gateway: /^(orders_|order_|settlement_|http_|ledger_check|sim_|db_pool)/,
  sim: /^(gateway_|orders_|order_|settlement_|http_|ledger_check|chain_)/,
  watcher: /^(gateway_|orders_|order_|settlement_|http_|ledger_check|sim_)/,
};

describe('each role exports its own metrics and no other role’s', () => {
  it.each(Object.keys(own) as Exclude<MetricsRole, 'all'>[])('%s', async (role) => {
    const names = await exported(role);
    expect([...names]).toEqual(expect.arrayContaining(own[role]));
    expect([...names].filter((n) => foreign[role].test(n))).toEqual([]);
    // Every role keeps the process figures (event-loop delay, memory).
    expect(names.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });

  it('the embedded process (all) exports every role’s', async () => {
    const names = await exported('all');
    for (const list of Object.values(own)) expect([...names]).toEqual(expect.arrayContaining(list));
  });
});

/** The samples of `name` in a scrape's text, label sets and values. */
const samples = (text: string, name: string) =>
  [...text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'gm'))].map((m) => ({
    labels: m[1] ?? '',
    value: Number(m[2]),
  }));

describe('what a scrape says before anything happened, and of several processes', () => {
  it("the tape writer's age is absent before its first write and on a standby, never 0", async () => {
    const metrics = createMetrics('sim');
    expect(samples(await metrics.registry.metrics(), 'sim_tape_last_write_age_seconds')).toEqual(
      [],
    );
    metrics.watchTape(() => ({ buffered: 0, lastWriteMs: null }));
    expect(samples(await metrics.registry.metrics(), 'sim_tape_last_write_age_seconds')).toEqual(
      [],
    );
    metrics.watchTape(() => ({ buffered: 3, lastWriteMs: Date.now() - 40_000 }));
    const [age] = samples(await metrics.registry.metrics(), 'sim_tape_last_write_age_seconds');
    expect(age!.value).toBeGreaterThanOrEqual(40);
    metrics.watchTape(null);
    expect(samples(await metrics.registry.metrics(), 'sim_tape_last_write_age_seconds')).toEqual(
      [],
    );
  });

  it("a gateway worker's series carry its slot as `process`, counters and gauges alike", async () => {
    const metrics = createMetrics('gateway', { process: '2' });
    metrics.apiReachable.set(0);
    metrics.deliveries.inc({ event: 'tick' }, 5);
    const text = await metrics.registry.metrics();
    expect(samples(text, 'gateway_api_reachable')).toEqual([
      { labels: '{role="gateway",process="2"}', value: 0 },
    ]);
    expect(samples(text, 'gateway_deliveries_total')).toEqual([
      { labels: '{event="tick",role="gateway",process="2"}', value: 5 },
    ]);
    expect(samples(text, 'nodejs_eventloop_lag_p99_seconds')[0]!.labels).toBe(
      '{role="gateway",process="2"}',
    );
    // A gateway of one process has no such label.
    const single = await createMetrics('gateway').registry.metrics();
    expect(single).not.toContain('process="');
  });

  it("the cluster primary's figures: each slot up or not, and its restarts", async () => {
    const primary = createGatewayPrimaryMetrics();
    primary.processUp.set({ process: '1' }, 1);
    primary.processUp.set({ process: '2' }, 0);
    primary.processRestarts.inc({ process: '2' });
    const text = await primary.registry.metrics();
    expect(samples(text, 'gateway_process_up')).toEqual([
      { labels: '{process="1",role="gateway"}', value: 1 },
      { labels: '{process="2",role="gateway"}', value: 0 },
    ]);
    expect(samples(text, 'gateway_process_restarts_total')).toEqual([
      { labels: '{process="2",role="gateway"}', value: 1 },
    ]);
    // Nothing else: the workers' figures come from the workers.
    expect([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1])).toEqual([
      'gateway_process_up',
      'gateway_process_restarts_total',
    ]);
  });
});

describe('settlement backlog, HTTP durations and the ledger check', () => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb('pglite');
    api = await buildTestApi(t.db);
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  it('the backlog gauge counts orders awaiting their entry and orders past expiry', async () => {
    const metrics = createMetrics('worker');
    metrics.watchSettlementBacklog(() => countSettlementBacklog(t.db));
    const scrape = async () => {
      const text = await metrics.registry.metrics();
      const figure = (kind: string) =>
        Number(
          text.match(
            new RegExp(`^settlement_backlog_orders\\{kind="${kind}"[^}]*\\} (\\d+)$`, 'm'),
          )?.[1],
        );
      return { overdue: figure('overdue'), awaiting: figure('awaiting_entry') };
    };
    const users = await bulkUsers(t.db, 1, 100_000);
    await bulkOrders(t.db, users, 2);
    expect(await scrape()).toEqual({ overdue: 0, awaiting: 2 });
    // Past expiry and still open: owed by settlement.
    await expireAllAt(t.db, -5);
    expect(await scrape()).toEqual({ overdue: 2, awaiting: 2 });
  });

  it('labels HTTP durations by route pattern, never by the raw path', async () => {
    const { token } = await registerUser(api);
    const auth = { authorization: `Bearer ${token}` };
    expect((await api.http.get('/api/orders/123456').set(auth)).status).toBe(404);
    expect((await api.http.get('/api/orders/987654').set(auth)).status).toBe(404);
    await api.http.get('/api/no-such-thing/42');
    const text = await api.metrics.registry.metrics();
    const routes = new Set(
      [...text.matchAll(/^http_request_duration_seconds_count\{[^}]*route="([^"]+)"/gm)].map(
        (m) => m[1],
      ),
    );
    expect(routes.has('/api/orders/:id')).toBe(true);
    expect(routes.has('unmatched')).toBe(true);
    expect(text).not.toContain('123456');
    expect(text).not.toContain('no-such-thing');
    // Both calls to one pattern fall in one series, by status.
    const series = text
      .split('\n')
      .filter((l) => l.startsWith('http_request_duration_seconds_count{'))
      .filter((l) => l.includes('route="/api/orders/:id"'));
    expect(series).toHaveLength(1);
    expect(series[0]).toContain('status="404"');
    expect(series[0]).toContain('method="GET"');
    expect(series[0]).toMatch(/\} 2$/);
  });

  it('the periodic ledger check exports its verdict and logs an error when it fails', async () => {
    const lines: { level: number; msg: string; problems?: string[] }[] = [];
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(JSON.parse(chunk.toString()));
          done();
        },
      }),
    );
    const metrics = createMetrics('api');
    const job = startLedgerCheckJob({
      db: t.db,
      everyMs: 60_000,
      log,
      metrics,
      now: () => 1_700_000_000_000,
    });
    const gauge = async (name: string) =>
      Number(
        (await metrics.registry.metrics()).match(
          new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm'),
        )?.[1],
      );

    // A fresh process has no verdict yet: no sample at all, rather than a 0 that reads "failed".
    const before = await metrics.registry.metrics();
    expect(samples(before, 'ledger_check_ok')).toEqual([]);
    expect(samples(before, 'ledger_check_last_run_timestamp_seconds')).toEqual([]);

    expect(await job.runOnce()).toBe(true);
    expect(await gauge('ledger_check_ok')).toBe(1);
    expect(await gauge('ledger_check_last_run_timestamp_seconds')).toBe(1_700_000_000);

    const corrupt = await t.db.query<{ id: number }>(
      `WITH t AS (INSERT INTO transfers (kind, ref) VALUES ('deposit', 'test:corrupt-metrics') RETURNING id)
       INSERT INTO entries (transfer_id, account_id, amount, balance_after)
       SELECT t.id, (SELECT id FROM ledger_accounts WHERE kind = 'available' ORDER BY id LIMIT 1), 700, 700 FROM t
       RETURNING transfer_id AS id`,
    );
    expect(await job.runOnce()).toBe(false);
    expect(await gauge('ledger_check_ok')).toBe(0);
    const error = lines.find((l) => l.level === 50);
    expect(error?.msg).toBe('ledger check found problems');
    expect(error?.problems).toContain(`transfer ${corrupt.rows[0]!.id} sums to 700`);
    await job.stop();
  });
});
