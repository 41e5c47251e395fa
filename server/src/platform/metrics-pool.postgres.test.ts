import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@infra/db';
import { createPostgresDb } from '@infra/db/postgres';
import { countSettlementBacklog } from '@server/modules/orders/orders.repo';
import { openTestDb, type TestDb } from '@tests/support/db';
import { createMetrics, type Metrics } from './metrics';

/** `db_pool_wait_seconds_total` as the process exports it. */
const waited = async (metrics: Metrics) =>
  Number(
    /^db_pool_wait_seconds_total\{[^}]*\} (\S+)$/m.exec(await metrics.registry.metrics())?.[1],
  );

describe("the database pool's waiting callers, on a real pg pool", () => {
  let t: TestDb;
  let small: Db | undefined;
  beforeAll(async () => {
    t = await openTestDb('postgres');
  });
  afterAll(async () => {
    await small?.close();
    await t?.drop();
  });

  it('an idle process scraped back to back shows no wait, though every scrape queues a query of its own', async () => {
    const metrics = createMetrics('worker');
    metrics.watchSettlementBacklog(() => countSettlementBacklog(t.db));
    let reads = 0;
    metrics.watchDbPool(() => {
      reads++;
      return t.db.poolStats!();
    });
    // A scrape-time gauge would read waiting 1 at every scrape: a query handed an idle connection
    // waits in pg's queue until the next tick, and the scrape's own backlog query is one.
    await t.db.query('SELECT 1');

    // Scrapes back to back (each counts the backlog and reads the pool once) until the sampler,
    // between them, has read the pool 20 times.
    let scrapes = 0;
    while (reads - scrapes < 20) {
      const text = await metrics.registry.metrics();
      scrapes++;
      expect(text).toMatch(/^settlement_backlog_orders\{kind="overdue"[^}]*\} 0$/m);
    }
    expect(await waited(metrics)).toBe(0);
    expect(await metrics.registry.metrics()).not.toContain('state="waiting"');
  });

  it('callers queued for a busy pool are counted for as long as they wait', async () => {
    const metrics = createMetrics('api');
    small = createPostgresDb({ url: t.url!, schema: t.schema, max: 1 });
    const pool = small;
    metrics.watchDbPool(() => pool.poolStats!());
    // The one connection sleeps 0.8 s; the second caller waits for it all along.
    const holding = pool.query('SELECT pg_sleep(0.8)');
    const queued = pool.query('SELECT 1');
    await vi.waitFor(() => expect(pool.poolStats!().waiting).toBe(1), { timeout: 700 });
    await Promise.all([holding, queued]);
    const seconds = await waited(metrics);
    expect(seconds).toBeGreaterThan(0.6);
    expect(seconds).toBeLessThan(2);
  });
});
