import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTicks } from '@sim/tape.repo';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { bulkUsers } from '@tests/support/bulk-orders';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';

/**
 * Price alerts fired by two api processes on PostgreSQL + Redis, both evaluating every 20 ms:
 * 200 alerts on four products, crossed by ticks written in steps while both run. Each alert fires
 * exactly once, at its first crossing tick after its creation, with exactly one message.
 */
describe('price alerts across two api processes (PostgreSQL + Redis)', { timeout: 180_000 }, () => {
  let t: TestDb;
  const running: RunningProcess[] = [];
  const products = ['BTCUSDT', 'ETHUSDT', 'XAUUSD', 'WTIUSD'];

  beforeAll(async () => {
    t = await openTestDb('postgres');
    const env = {
      DATABASE_URL: urlWithSchema(t.url!, t.schema!),
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_NAMESPACE: `alerts-${randomBytes(3).toString('hex')}`,
      SETTLEMENT_WORKER: 'off',
      ALERT_EVALUATE_MS: '20',
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_MS: '5000',
    };
    const ports = await Promise.all([freePort(), freePort()]);
    for (const port of ports)
      running.push(startEntry('server/src/main/api.ts', { ...env, PORT: String(port) }));
    await Promise.all(ports.map((p) => waitForHttp(`http://127.0.0.1:${p}/readyz`, 200, 90_000)));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop('SIGKILL')));
    await t.drop();
  });

  it('fire 200 alerts, each exactly once at its crossing tick, each with one message', async () => {
    const users = await bulkUsers(t.db, 20, 0);
    // The tape before the alerts: every product at 1000.00, seq 1..10 (a crossing of some alert
    // among them, seq 5 at 2000.00, must not count: it is before their creation).
    for (const p of products)
      await insertTicks(
        t.db,
        Array.from({ length: 10 }, (_, i) => ({
          productId: p,
          seq: i + 1,
          ts: 1_000 + i,
          price: i === 4 ? 200_000 : 100_000,
          qty: 1,
        })),
      );
    // 50 alerts per product: above 1001.00 … 1050.00 by whole units (created after seq 10).
    const alerts: { product: string; threshold: number }[] = [];
    for (const p of products)
      for (let i = 1; i <= 50; i++) alerts.push({ product: p, threshold: 100_000 + i * 100 });
    await t.db.query(
      `INSERT INTO price_alerts (user_id, product_id, direction, threshold, created_seq, scanned_seq)
       SELECT u, p, 'above', th, 10, 10
       FROM unnest($1::bigint[], $2::text[], $3::bigint[]) AS v(u, p, th)`,
      [
        alerts.map((_, i) => users[i % users.length]!),
        alerts.map((a) => a.product),
        alerts.map((a) => a.threshold),
      ],
    );
    // The price climbs 1000.50, 1001.50, … 1050.50 in 51 writes while both processes evaluate:
    // the alert at 1000.00 + k fires at the tick of price 1000.50 + k (seq 11 + k).
    for (let k = 0; k <= 50; k++) {
      await insertTicks(
        t.db,
        products.map((p) => ({
          productId: p,
          seq: 11 + k,
          ts: 2_000 + k,
          price: 100_050 + k * 100,
          qty: 1,
        })),
      );
      await new Promise((r) => setTimeout(r, 15));
    }
    const deadline = Date.now() + 30_000;
    let pending = alerts.length;
    while (pending > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      pending = Number(
        (
          await t.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM price_alerts WHERE fired_at IS NULL',
          )
        ).rows[0]!.n,
      );
    }
    expect(pending).toBe(0);
    const wrong = await t.db.query(
      `SELECT id, threshold, fired_seq FROM price_alerts
       WHERE fired_seq <> 11 + (threshold - 100000) / 100 OR fired_price <> 100050 + (fired_seq - 11) * 100`,
    );
    expect(wrong.rows).toEqual([]);
    // Exactly one message per alert, and none for anything else.
    const messages = await t.db.query<{ ref: string; n: number }>(
      `SELECT params->>'ref' AS ref, count(*)::int AS n FROM messages WHERE kind = 'price_alert' GROUP BY 1`,
    );
    expect(messages.rows).toHaveLength(alerts.length);
    expect(messages.rows.filter((m) => Number(m.n) !== 1)).toEqual([]);
    const ids = await t.db.query<{ id: string }>('SELECT id::text AS id FROM price_alerts');
    expect(messages.rows.map((m) => m.ref).sort()).toEqual(ids.rows.map((r) => r.id).sort());
    // Both stop cleanly (their jobs finish a pass under way).
    await Promise.all(running.splice(0).map(async (p) => expect(await p.stop('SIGTERM')).toBe(0)));
  });
});
