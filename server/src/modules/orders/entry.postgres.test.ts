import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Order } from '@shared/orders/model';
import { presentOrder } from '@server/modules/orders/orders.service';
import { recordingUserEvents } from '@server/platform/user-events';
import { bulkOrders, bulkUsers, settlementFacts } from '@tests/support/bulk-orders';
import { openTestDb, type TestDb } from '@tests/support/db';
import { insertTicks } from '@sim/tape.repo';
import { checkLedger } from '../ledger/ledger';
import { startSettlementWorker } from './settlement.worker';

// PostgreSQL only: several workers on their own connections race for the same rows, which an
// embedded PGlite (one connection) cannot show.
describe('entries with several workers (PostgreSQL)', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb('postgres');
  });
  afterAll(async () => {
    await t.drop();
  });

  it('4 workers give each of 400 orders its first tick after acceptance, exactly once', async () => {
    const users = await bulkUsers(t.db, 20, 10_000_000);
    // A live tape: a tick every 50 ms, as the simulator writes it, while orders arrive.
    let seq = 0;
    let price = 6_700_000;
    const ticker = setInterval(() => {
      price += seq % 3 === 0 ? 100 : -50;
      void insertTicks(t.db, [{ productId: 'BTCUSDT', seq: ++seq, ts: Date.now(), price, qty: 1 }]);
    }, 50);
    const events = recordingUserEvents();
    const workers = [1, 2, 3, 4].map(() =>
      startSettlementWorker({
        db: t.db,
        orders: { present: (row) => presentOrder(row, 2) },
        userEvents: events,
        balancesChanged: () => undefined,
        maxFeedDelayMs: 3000,
        batchSize: 50,
      }),
    );
    try {
      await bulkOrders(t.db, users, 400);
      const waiting = async () =>
        (
          await t.db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM orders WHERE status = 'open' AND entry_seq IS NULL",
          )
        ).rows[0]!.n;
      await vi.waitFor(async () => expect(await waiting()).toBe(0), {
        timeout: 30_000,
        interval: 100,
      });
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      clearInterval(ticker);
    }

    // Every entry is the first tick after its order's acceptance; none had to be void. (On a
    // busy machine the first orders may have reached their expiry and settled meanwhile.)
    expect(await settlementFacts(t.db)).toMatchObject({
      halfDone: 0,
      wrongEntry: 0,
      heldMismatch: 0,
    });
    const { rows: voids } = await t.db.query(
      "SELECT id FROM orders WHERE void_reason = 'NO_ENTRY_TICK'",
    );
    expect(voids).toEqual([]);
    // Each order entered once: one `order` event with its entry, none with another.
    const entered = new Map<string, Order[]>();
    for (const e of events.sent) {
      const o = e.payload as Order;
      if (e.event === 'order' && o.entry) entered.set(o.id, [...(entered.get(o.id) ?? []), o]);
    }
    expect(entered.size).toBe(400);
    expect([...entered.values()].filter((list) => list.length !== 1)).toEqual([]);
    const { rows } = await t.db.query<{ id: string; entry_seq: number }>(
      'SELECT id::text, entry_seq FROM orders',
    );
    for (const r of rows) expect(entered.get(r.id)![0]!.entry!.seq).toBe(r.entry_seq);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  }, 60_000);
});
