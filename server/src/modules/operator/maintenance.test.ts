import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusMessage } from '@shared/bus';
import { defaultCatalogue } from '@sim/catalogue';
import { startFeed, type Feed } from '@sim/feed';
import { maintenanceList } from '@sim/tape.repo';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, OPERATOR_TOKEN, type TestApi } from '@tests/support/api';
import { opsAuth, readyUser } from '@tests/support/wallet';

/** POST /api/ops/products/:id/maintenance, through the real simulator on the same bus. */
describe.each(dbDrivers())('product maintenance on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  let feed: Feed;
  const heard: BusMessage[] = [];

  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
    await api.bus.subscribe('maintenance', (m) => heard.push(m));
    feed = await startFeed({
      db: t.db,
      bus: api.bus,
      catalogue: defaultCatalogue,
      seed: 5,
      randomness: { kind: 'seeded' },
      ticksPerSecond: 20,
      backfillHours: 0,
      retentionHours: 48,
    });
  });
  afterAll(async () => {
    await feed?.stop();
    await api?.close();
    await t?.drop();
  });

  const maintenance = (id: string, body: unknown, auth: Record<string, string> = opsAuth) =>
    api.http
      .post(`/api/ops/products/${id}/maintenance`)
      .set(auth)
      .send(body as object);
  const statusOf = async (id: string) =>
    (await api.http.get(`/api/market/products/${id}`).expect(200)).body as {
      status: string;
      opensAt?: number;
    };

  it('refuses without the operator token, for an unknown product and for bad bodies, storing nothing', async () => {
    const later = Date.now() + 3_600_000;
    expect((await maintenance('BTCUSDT', { on: true }, {})).status).toBe(401);
    expect((await maintenance('BTCUSDT', { on: true }, { Authorization: 'Bearer x' })).status).toBe(
      401,
    );
    const unknown = await maintenance('NOPE', { on: true });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const bad: [unknown, string][] = [
      [{}, 'on'],
      [{ on: 'yes' }, 'on'],
      [{ on: true, opensAt: 1.5 }, 'opensAt'],
      [{ on: true, opensAt: -1 }, 'opensAt'],
      [{ on: true, opensAt: '2030-01-01' }, 'opensAt'],
      [{ on: true, opensAt: Date.now() - 1000 }, 'opensAt'],
      [{ on: false, opensAt: later }, 'opensAt'],
    ];
    for (const [body, field] of bad) {
      const res = await maintenance('BTCUSDT', body);
      expect([res.status, res.body.error.code, res.body.error.field]).toEqual([
        400,
        'VALIDATION_FAILED',
        field,
      ]);
    }
    expect(await maintenanceList(t.db)).toEqual(new Map());
    expect(heard).toEqual([]);
  });

  it('stops a product with its opening time: clients see it, orders are refused; off opens it again', async () => {
    const trader = await readyUser(api, 100_000, 'maint');
    const order = () =>
      api.http
        .post('/api/orders')
        .set(trader.auth)
        .send({ productId: 'BTCUSDT', direction: 'up', amount: 10_000, duration: 30 });
    await expect.poll(async () => (await order()).status, { timeout: 5000 }).toBe(201);

    const opensAt = Date.now() + 3_600_000;
    const on = await maintenance('BTCUSDT', { on: true, opensAt }).expect(200);
    expect(on.body).toEqual({ id: 'BTCUSDT', on: true, opensAt });
    expect(await maintenanceList(t.db)).toEqual(new Map([['BTCUSDT', opensAt]]));
    expect(heard.at(-1)).toEqual({ type: 'maintenance', id: 'BTCUSDT', on: true, opensAt });
    await expect
      .poll(async () => (await statusOf('BTCUSDT')).status, { timeout: 5000 })
      .toBe('maintenance');
    expect(await statusOf('BTCUSDT')).toMatchObject({ status: 'maintenance', opensAt });
    const refused = await order();
    expect([refused.status, refused.body.error.code]).toEqual([409, 'PRODUCT_MAINTENANCE']);
    // Other products trade on.
    expect((await statusOf('ETHUSDT')).status).toBe('open');

    // Again while under maintenance: the opening time is replaced, not added.
    const later = opensAt + 1_800_000;
    await maintenance('BTCUSDT', { on: true, opensAt: later }).expect(200);
    expect(await maintenanceList(t.db)).toEqual(new Map([['BTCUSDT', later]]));

    const off = await maintenance('BTCUSDT', { on: false }).expect(200);
    expect(off.body).toEqual({ id: 'BTCUSDT', on: false });
    expect(await maintenanceList(t.db)).toEqual(new Map());
    await expect
      .poll(async () => (await statusOf('BTCUSDT')).status, { timeout: 5000 })
      .toBe('open');
    await expect.poll(async () => (await order()).status, { timeout: 5000 }).toBe(201);
  });

  it('is what `npm run ops -- products maintenance` calls', async () => {
    const server = api.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ops = (...args: string[]) =>
      promisify(execFile)(
        path.resolve('node_modules/.bin/tsx'),
        ['scripts/ops.ts', 'products', 'maintenance', ...args, '--url', url],
        { env: { ...process.env, OPERATOR_TOKEN } },
      );
    try {
      const on = await ops('XAUUSD', 'on', '--opens-at', '2099-01-02T03:04:05Z');
      const opensAt = Date.UTC(2099, 0, 2, 3, 4, 5);
      expect(JSON.parse(on.stdout)).toEqual({ id: 'XAUUSD', on: true, opensAt });
      expect((await maintenanceList(t.db)).get('XAUUSD')).toBe(opensAt);
      await ops('XAUUSD', 'off');
      expect((await maintenanceList(t.db)).has('XAUUSD')).toBe(false);
      await expect(ops('XAUUSD', 'maybe')).rejects.toMatchObject({ code: 2 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
