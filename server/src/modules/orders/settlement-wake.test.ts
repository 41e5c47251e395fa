import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@infra/db';
import type { Order } from '@shared/orders/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { fund, liveTick, publishMarket } from '@tests/support/orders';
import { busWakes, nextLook } from './settlement-wake';
import { startSettlementWorker } from './settlement.worker';

describe('when a settlement worker looks next', () => {
  const o = { safetyMs: 5000, recheckMs: 1000 };
  it('waits for the safety poll alone when nothing is open', () => {
    expect(nextLook({ awaitingEntry: false, nextExpiryInMs: null }, o)).toEqual({
      waitMs: 5000,
      onTape: false,
    });
  });
  it('looks at the tape’s next write (or the recheck) while an entry or a due exit waits', () => {
    for (const open of [
      { awaitingEntry: true, nextExpiryInMs: 60_000 },
      { awaitingEntry: false, nextExpiryInMs: 0 },
      { awaitingEntry: false, nextExpiryInMs: -300 },
    ])
      expect(nextLook(open, o)).toEqual({ waitMs: 1000, onTape: true });
  });
  it('looks at the first expiry, at the latest at the safety poll', () => {
    expect(nextLook({ awaitingEntry: false, nextExpiryInMs: 1200 }, o)).toEqual({
      waitMs: 1200,
      onTape: false,
    });
    expect(nextLook({ awaitingEntry: false, nextExpiryInMs: 40_000 }, o).waitMs).toBe(5000);
  });
});

/** `db` with every statement and transaction it is asked for counted. */
function counted(db: Db): { db: Db; statements: () => number } {
  let n = 0;
  const wrapped = new Proxy(db, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if ((key === 'query' || key === 'transaction') && typeof value === 'function')
        return (...args: unknown[]) => {
          n++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      return value;
    },
  });
  return { db: wrapped, statements: () => n };
}

/**
 * DECISIONS.md, "Settlement wakes, it does not poll": a worker with nothing open asks the database
 * nothing until an event (or its safety poll, here 10 minutes away), and a placement heard on the
 * bus has it give the order its entry at the tape's next write.
 */
describe.each(dbDrivers())('a settlement worker woken by events on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
    await publishMarket(api.bus, { XAGUSD: 'open' });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  it('asks nothing while nothing is open, and enters a placed order without waiting for the poll', async () => {
    const c = counted(t.db);
    const wanted: string[] = [];
    const off = await api.bus.subscribe('tape-wanted', (m) => void wanted.push(m.by));
    const worker = startSettlementWorker({
      db: c.db,
      orders: api.orders,
      userEvents: api.userEvents,
      balancesChanged: () => undefined,
      maxFeedDelayMs: 3000,
      idleMs: 600_000,
      wakes: busWakes(api.bus),
    });
    try {
      // Its first round: is anything decidable, what is open.
      await vi.waitFor(() => expect(c.statements()).toBe(2), { timeout: 20_000 });
      // Ticks keep coming, and nobody has an open order: not one statement.
      for (let i = 0; i < 10; i++) await liveTick(t.db, api.bus, 'XAGUSD', 9_000 + i);
      await new Promise((r) => setTimeout(r, 300));
      expect(c.statements()).toBe(2);
      // Nor does it want the tape current: the simulator may write it at its rest cadence.
      expect(wanted).toEqual([]);

      const u = await registerUser(api, 'woken');
      await fund(t.db, u.user.id, 100_000);
      const body = { productId: 'XAGUSD', direction: 'up', amount: 10_000, duration: 30 };
      const placed = (await api.http.post('/api/orders').set(u.auth).send(body).expect(201))
        .body as Order;
      // Its entry waits on the tape: it asks for the tape current (DECISIONS 63).
      await vi.waitFor(() => expect(wanted).toContain('worker'), { timeout: 20_000 });
      await liveTick(t.db, api.bus, 'XAGUSD', 9_100, Math.max(Date.now(), placed.createdAt) + 5);
      const entry = async () =>
        (await api.http.get(`/api/orders/${placed.id}`).set(u.auth).expect(200)).body as Order;
      await vi.waitFor(async () => expect((await entry()).entry?.price).toBe('9.100'), {
        timeout: 20_000,
        interval: 100,
      });
    } finally {
      await off();
      await worker.stop();
    }
  });
});
