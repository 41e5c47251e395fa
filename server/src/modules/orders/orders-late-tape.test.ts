import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import {
  backdateOrder,
  fund,
  publishMarket,
  recordTick,
  stoppedWorker,
} from '@tests/support/orders';
import { advanceWatermark } from '@sim/tape.repo';
import { checkLedger } from '../ledger/ledger';

/**
 * A tape that arrives late (a busy database) delays a settlement while a simulator leads; once
 * none leads, the grace decides (FAIRNESS.md).
 */
describe.each(dbDrivers())('settlement on a late tape on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
    await publishMarket(api.bus, { DOGEUSDT: 'open', XRPUSDT: 'open' });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const funded = async (amount: number) => {
    const u = await registerUser(api, 'trader');
    await fund(t.db, u.user.id, amount);
    return u;
  };
  const order = (over: Record<string, unknown>) => ({
    productId: 'BTCUSDT',
    direction: 'up',
    amount: 10_000,
    duration: 30,
    ...over,
  });

  it('while a simulator leads, a late tape delays a settlement and never voids it; once none leads, the grace decides', async () => {
    const u = await funded(100_000);
    // A fresh quote on the bus only: the tape (DOGEUSDT's and XRPUSDT's are this test's alone)
    // holds just the ticks written below, in time order, as a simulator writes it.
    const quote = async (id: string, price: string) => {
      await api.bus.publish({ type: 'tick', tick: { id, seq: 1, ts: Date.now(), price } });
      await new Promise((r) => setTimeout(r, 5)); // the in-process bus delivers in a microtask
    };
    const place = async (productId: string) =>
      (
        (
          await api.http
            .post('/api/orders')
            .set(u.auth)
            .send(order({ direction: 'up', productId }))
            .expect(201)
        ).body as Order
      ).id;
    const get = async (oid: string) =>
      (await api.http.get(`/api/orders/${oid}`).set(u.auth).expect(200)).body as Order;
    // Expired 10 s ago, five times the grace: its entry is on the tape, but the tape's last
    // tick before expiry is 5 s older than it, and the watermark lags behind the expiry.
    await quote('DOGEUSDT', '200.00000');
    const oid = await place('DOGEUSDT');
    const { acceptedMs, expiresMs } = await backdateOrder(t.db, oid, 40_000);
    await recordTick(t.db, 'DOGEUSDT', 20_000_000, acceptedMs + 100);
    await recordTick(t.db, 'DOGEUSDT', 20_000_100, expiresMs - 5000);
    try {
      // A simulator holds the lease, but its writes are late (a busy database).
      await t.db.query(
        `UPDATE sim_lease SET holder = 'late-writer', epoch = epoch + 1,
                expires_at = now() + interval '1 minute' WHERE id = 1`,
      );
      await t.db.query('UPDATE tape_watermark SET through_ms = $1', [expiresMs - 4000]);
      const worker = await stoppedWorker(t.db, api);
      expect(await get(oid)).toMatchObject({ status: 'open', entry: { price: '200.00000' } });
      expect(await worker.settleBatch()).toBe(0);

      // The late ticks arrive: the exit is the one just before expiry, a win, not a void.
      await recordTick(t.db, 'DOGEUSDT', 20_000_900, expiresMs - 100);
      await advanceWatermark(t.db, expiresMs + 1);
      expect(await worker.settleBatch()).toBe(1);
      expect(await get(oid)).toMatchObject({ status: 'won', exit: { price: '200.00900' } });

      // No simulator leads any more: after the grace the tape as it stands decides (a void).
      await quote('XRPUSDT', '6.0000');
      const gone = await place('XRPUSDT');
      const late = await backdateOrder(t.db, gone, 40_000);
      await recordTick(t.db, 'XRPUSDT', 60_000, late.acceptedMs + 100);
      await t.db.query('UPDATE tape_watermark SET through_ms = $1', [late.expiresMs - 4000]);
      await worker.entryBatch();
      expect(await worker.settleBatch()).toBe(0); // the lease is still live
      await t.db.query("UPDATE sim_lease SET expires_at = 'epoch' WHERE id = 1");
      expect(await worker.settleBatch()).toBe(1);
      expect(await get(gone)).toMatchObject({ status: 'void', voidReason: 'FEED_STALE' });
      expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
    } finally {
      await t.db.query("UPDATE sim_lease SET holder = '', expires_at = 'epoch' WHERE id = 1");
    }
  });
});
