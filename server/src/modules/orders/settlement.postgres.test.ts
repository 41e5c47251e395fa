import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Order } from '@shared/orders/model';
import { openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { fund, liveTick, publishMarket, recordTick, stoppedWorker } from '@tests/support/orders';

// PostgreSQL only: PGlite runs inside the process, so its clock is the process clock by nature.
describe('the worker judges acceptance and expiry by the database clock (PostgreSQL)', () => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb('postgres');
    api = await buildTestApi(t.db);
    await publishMarket(api.bus, { BTCUSDT: 'open' });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const place = async () => {
    const u = await registerUser(api, 'clock');
    await fund(t.db, u.user.id, 100_000);
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
    const o = (
      await api.http
        .post('/api/orders')
        .set(u.auth)
        .send({ productId: 'BTCUSDT', direction: 'up', amount: 10_000, duration: 30 })
        .expect(201)
    ).body as Order;
    return { u, o };
  };
  /** Starts a worker whose process clock runs 60 s ahead, lets it do one round, and stops it. */
  const workerAhead = async () => {
    vi.useFakeTimers({ now: Date.now() + 60_000, toFake: ['Date'] });
    try {
      const worker = await stoppedWorker(t.db, api);
      return { entries: await worker.entryBatch(), settled: await worker.settleBatch() };
    } finally {
      vi.useRealTimers();
    }
  };

  it('a worker whose own clock runs 60 s ahead voids no entry early', async () => {
    const { u, o } = await place();
    // No tick after acceptance yet: by the database clock the window has only just opened.
    expect(await workerAhead()).toEqual({ entries: 0, settled: 0 });
    expect(await api.http.get(`/api/orders/${o.id}`).set(u.auth).expect(200)).toMatchObject({
      body: { status: 'open', entry: null },
    });
  });

  it('a worker whose own clock runs 60 s ahead settles nothing early', async () => {
    const { u, o } = await place();
    // Its entry, then a tick "after expiry" by the worker's clock, are on the tape too.
    await recordTick(t.db, 'BTCUSDT', 6_700_100, Math.max(Date.now(), o.createdAt) + 1);
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_500, Date.now() + 40_000);
    const round = await workerAhead();
    expect(round.settled).toBe(0);
    const got = (await api.http.get(`/api/orders/${o.id}`).set(u.auth).expect(200)).body as Order;
    expect(got.status).toBe('open');
    expect(got.entry).toMatchObject({ price: '67001.00' });
  });
});
