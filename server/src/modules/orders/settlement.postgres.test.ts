import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Order } from '@shared/orders';
import { openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { fund, liveTick } from '@tests/support/orders';
import { startSettlementWorker } from './settlement.worker';

// PostgreSQL only: PGlite runs inside the process, so its clock is the process clock by nature.
describe('settlement judges expiry by the database clock (PostgreSQL)', () => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb('postgres');
    api = await buildTestApi(t.db);
    await api.bus.publish({
      type: 'market',
      market: {
        ts: Date.now(),
        products: [
          {
            id: 'BTCUSDT',
            status: 'open',
            last: null,
            stats: {
              open: '0',
              high: '0',
              low: '0',
              last: '0',
              change: '0',
              changePct: '0.00',
              volume: '0',
              amount: '0.00',
            },
          },
        ],
      },
    });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  it('a worker whose own clock runs 60 s ahead settles nothing early', async () => {
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
    // A tick "after expiry" by the worker's clock is on the tape too.
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_500, Date.now() + 40_000);
    vi.useFakeTimers({ now: Date.now() + 60_000, toFake: ['Date'] });
    try {
      const worker = startSettlementWorker({
        db: t.db,
        orders: api.orders,
        userEvents: api.userEvents,
        balancesChanged: () => undefined,
        maxFeedDelayMs: 3000,
        idleMs: 60_000,
      });
      await worker.stop();
      expect(await worker.settleBatch()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    expect(((await api.http.get(`/api/orders/${o.id}`).set(u.auth)).body as Order).status).toBe(
      'open',
    );
  });
});
