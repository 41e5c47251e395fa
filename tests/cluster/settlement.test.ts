import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '@server/modules/ledger/ledger';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import {
  bulkOrders,
  bulkUsers,
  expireAllAt,
  recordTape,
  settlementFacts,
} from '@tests/support/bulk-orders';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';

/**
 * Entry and settlement as separate worker processes on PostgreSQL: each order entered at the first
 * tick after its acceptance and settled exactly once, and nothing half-done after SIGKILL.
 */
describe('settlement workers across processes (PostgreSQL)', { timeout: 120_000 }, () => {
  let t: TestDb;
  let users: number[];
  const running: RunningProcess[] = [];
  const startWorker = async (env: Record<string, string> = {}) => {
    const port = await freePort();
    const w = startEntry('server/src/main/worker.ts', {
      DATABASE_URL: urlWithSchema(t.url!, t.schema!),
      REDIS_URL: '',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    });
    running.push(w);
    await waitForHttp(`http://127.0.0.1:${port}/readyz`);
    return w;
  };

  beforeAll(async () => {
    t = await openTestDb('postgres');
    users = await bulkUsers(t.db, 50, 10_000_000);
    await recordTape(t.db, { fromMs: 10_000, toMs: 120_000 });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(running.map((w) => w.stop('SIGKILL')));
    await t.drop();
  });

  it('4 workers enter and settle 1 000 orders expiring in the same second, each exactly once', async () => {
    await bulkOrders(t.db, users, 1000);
    await Promise.all([1, 2, 3, 4].map(() => startWorker()));
    await expireAllAt(t.db, 1);
    const deadline = Date.now() + 30_000;
    let facts = await settlementFacts(t.db);
    while (facts.open > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      facts = await settlementFacts(t.db);
    }
    expect(facts).toEqual({
      open: 0,
      settled: 1000,
      settleTransfers: 1000,
      halfDone: 0,
      wrongEntry: 0,
      heldMismatch: 0,
    });
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
    const { rows } = await t.db.query<{ p50: number; p99: number; max: number }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY lag)::int AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY lag)::int AS p99, max(lag)::int AS max
       FROM (SELECT extract(epoch FROM settled_at - expires_at) * 1000 AS lag FROM orders) x`,
    );
    console.log(
      `settlement lag with a pre-recorded tape, 4 workers, 1000 orders: p50 ${rows[0]!.p50} ms, p99 ${rows[0]!.p99} ms, max ${rows[0]!.max} ms`,
    );
    await Promise.all(running.splice(0).map((w) => w.stop('SIGTERM')));
  });

  it('a worker killed with SIGKILL mid-run leaves nothing half-done; a restarted one settles the rest', async () => {
    await bulkOrders(t.db, users, 1000);
    await expireAllAt(t.db, 1);
    const victim = await startWorker({ SETTLE_BATCH_SIZE: '20' });
    const before = (await settlementFacts(t.db)).settled;
    // Kill as soon as it has settled something but not everything.
    for (let i = 0; i < 400; i++) {
      const f = await settlementFacts(t.db);
      if (f.settled > before) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await victim.stop('SIGKILL');
    const mid = await settlementFacts(t.db);
    expect(mid.open).toBeGreaterThan(0);
    expect(mid.halfDone).toBe(0);
    expect(mid.wrongEntry).toBe(0);
    expect(mid.heldMismatch).toBe(0);
    expect(mid.settleTransfers).toBe(mid.settled);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });

    await startWorker();
    const deadline = Date.now() + 30_000;
    let facts = mid;
    while (facts.open > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      facts = await settlementFacts(t.db);
    }
    expect(facts).toEqual({
      open: 0,
      settled: 2000,
      settleTransfers: 2000,
      halfDone: 0,
      wrongEntry: 0,
      heldMismatch: 0,
    });
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });
});
