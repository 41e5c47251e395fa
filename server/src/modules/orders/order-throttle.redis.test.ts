import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, sharedRedisThrottles, type TestApi } from '@tests/support/api';
import { createMemoryHub, createMemoryBus } from '@infra/bus/memory';
import { fund, liveTick, publishMarket } from '@tests/support/orders';

/**
 * Two api processes of one deployment share the per-user order throttle and the per-address
 * market-read throttle through Redis: a client cannot double its rate by being balanced across
 * them.
 */
describe('throttles shared by two api processes (Redis)', () => {
  let t: TestDb;
  let apis: TestApi[];
  let shared: ReturnType<typeof sharedRedisThrottles>;
  beforeAll(async () => {
    t = await openTestDb('pglite');
    shared = sharedRedisThrottles(2);
    const hub = createMemoryHub();
    apis = await Promise.all(
      shared.stores.map((redis) =>
        buildTestApi(t.db, {
          redis,
          bus: createMemoryBus(hub),
          env: { ORDER_BURST: '4', ORDER_RATE: '0.2', MARKET_READ_RATE: '6/60s' },
        }),
      ),
    );
    await publishMarket(apis[0]!.bus, { BTCUSDT: 'open' });
  });
  afterAll(async () => {
    for (const a of apis) await a.close();
    shared.close();
    await t.drop();
  });

  it('counts one trader’s orders on both processes together', async () => {
    const u = await registerUser(apis[0]!, 'shared');
    await fund(t.db, u.user.id, 1_000_000);
    await liveTick(t.db, apis[0]!.bus, 'BTCUSDT', 6_700_000);
    const body = { productId: 'BTCUSDT', direction: 'up', amount: 1_000, duration: 30 };
    const statuses: number[] = [];
    // Alternating between the two processes: the burst of 4 is the deployment's, not each one's.
    for (let i = 0; i < 6; i++)
      statuses.push((await apis[i % 2]!.http.post('/api/orders').set(u.auth).send(body)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
  });

  it('counts one address’s market reads on both processes together', async () => {
    const from = { 'x-forwarded-for': '203.0.113.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await apis[i % 2]!.http.get('/api/market/products/BTCUSDT').set(from)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.slice(6)).toEqual([429, 429]);
  });
});
