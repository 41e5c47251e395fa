import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@tests/support/wait';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { holdLease, type Lease, type Led } from './lease';
import { createTapeWriter } from './tape-writer';
import { tapeWatermark } from './tape.repo';

/**
 * One simulator leads; a second waits. The lease hands over when the leader stops or stops
 * renewing, and a former leader can no longer write the tape (the fence), on both databases.
 */
describe.each(dbDrivers())('simulator lease (%s)', (kind) => {
  let t: TestDb;
  const leases: Lease[] = [];
  const ttlMs = 1000;
  const pollMs = 100;

  beforeAll(async () => {
    t = await openTestDb(kind);
  });
  afterEach(async () => {
    await Promise.all(leases.splice(0).map((l) => l.stop()));
  });
  afterAll(() => t.drop());

  /** A lease whose `lead` records what it started and when it was stopped. */
  const contender = (name: string) => {
    const led = { started: 0, stopped: 0 };
    const lease = holdLease({ db: t.db, ttlMs, pollMs, holder: name }, () => {
      led.started++;
      return Promise.resolve<Led>({
        stop: () => {
          led.stopped++;
          return Promise.resolve();
        },
      });
    });
    leases.push(lease);
    return { lease, led };
  };

  it('lets exactly one of two lead, and hands over at once when the leader stops', async () => {
    const a = contender('a');
    await a.lease.whenLeading();
    const b = contender('b');
    // b keeps trying for several TTLs: a renews, so b never leads.
    await new Promise((r) => setTimeout(r, 3 * ttlMs)); // three TTLs: an unrenewed lease would have expired
    expect([a.lease.state(), b.lease.state()]).toEqual(['leader', 'standby']);
    expect(a.lease.leading()).toBe(true);
    expect(b.led.started).toBe(0);

    const before = a.lease.epoch();
    await a.lease.stop();
    expect(a.led.stopped).toBe(1);
    // Released, not left to expire: the lease is free at once, and b leads with a higher epoch.
    const { rows } = await t.db.query<{ free: boolean }>(
      'SELECT expires_at <= now() AS free FROM sim_lease WHERE id = 1',
    );
    expect(rows[0]!.free).toBe(true);
    await b.lease.whenLeading();
    expect(b.lease.epoch()).toBe(before + 1);
  });

  // The usual write is one statement with the fence as its part (fenceQuery); the others (a start's
  // catch-up, period starts, an hour's roll-up) are a transaction that runs the fence first. Each
  // case has a product of its own and a later time than the one before it (the watermark only
  // rises), so neither depends on what the other wrote.
  it.each([
    ['one statement', true, 'LEASE1', 0],
    ['a transaction', false, 'LEASE2', 10_000],
  ])(
    'fences out a leader whose lease was taken while it stalled: its tape writes are refused (%s)',
    async (_, oneStatement, productId, at) => {
      const a = contender('a');
      await a.lease.whenLeading();
      let through = at + 1_500;
      const writer = createTapeWriter(t.db, {
        flushMs: 60_000,
        fence: (tx) => a.lease.fence(tx),
        fenceQuery: oneStatement ? () => a.lease.fenceQuery() : undefined,
        through: () => through,
      });
      writer.addTick({ productId, seq: 1, ts: at + 1_000, price: 100, qty: 1 });
      await writer.flush();
      // The watermark is written with the ticks: the tape is complete through 1 500.
      expect(await tapeWatermark(t.db)).toBe(at + 1_500);
      // a stalls (its renewals stop reaching the database); its lease expires and b takes over.
      await t.db.query("UPDATE sim_lease SET expires_at = 'epoch' WHERE id = 1");
      const b = contender('b');
      await b.lease.whenLeading();
      // a's buffered tick never reaches the tape…
      writer.addTick({ productId, seq: 2, ts: at + 2_000, price: 101, qty: 1 });
      through = at + 2_500;
      await writer.stop();
      const { rows } = await t.db.query<{ seq: string }>(
        'SELECT seq FROM ticks WHERE product_id = $1 ORDER BY seq',
        [productId],
      );
      expect(rows.map((r) => Number(r.seq))).toEqual([1]);
      expect(await tapeWatermark(t.db)).toBe(at + 1_500); // nor does its watermark
      // …and a notices on its next renewal, stops what it led, and stops publishing.
      await eventually(() => a.led.stopped === 1, 5000, 'a resigns');
      expect(a.lease.leading()).toBe(false);
      expect(b.lease.leading()).toBe(true);
    },
  );
});
