import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '@infra/db';
import { recordingUserEvents } from '@server/platform/user-events';
import { buildTestApi, registerUser } from '@tests/support/api';
import { bulkOrders, bulkUsers } from '@tests/support/bulk-orders';
import { fund } from '@tests/support/orders';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { createAccountSummaries } from './summary';
import { orderFigures } from '../orders/order-figures';
import { identityChecks } from '../kyc/identity';

const H = 3_600_000;
/** 00:00 of 10 March 2026 in UTC+8 (16:00 UTC the day before) and in UTC−5 (05:00 UTC). */
const MIDNIGHT = {
  480: Date.parse('2026-03-09T16:00:00Z'),
  [-300]: Date.parse('2026-03-10T05:00:00Z'),
} as const;

/**
 * Today's P&L counts the orders settled since 00:00 platform time (PLATFORM_UTC_OFFSET_MINUTES),
 * the same day savings and limits use, not since 00:00 UTC.
 */
describe.each(dbDrivers())('today’s P&L on the platform day (%s)', (kind) => {
  let t: TestDb;
  let userId: number;

  /** One order per result, settled at the given instants: P&L −1000, +800 and +2000. */
  const settleAt = async (times: number[]) => {
    await bulkOrders(t.db, [userId], 3);
    const { rows } = await t.db.query<{ id: number }>(
      "SELECT id FROM orders WHERE user_id = $1 AND status = 'open' ORDER BY id",
      [userId],
    );
    const results = [
      { status: 'lost', payout: 0 },
      { status: 'won', payout: 1800 },
      { status: 'won', payout: 3000 },
    ];
    for (const [i, row] of rows.entries())
      await t.db.query(
        // A settled order has an entry (the schema refuses a result without one).
        `UPDATE orders SET status = $2, amount = 1000, payout = $3, settled_at = $4,
                entry_seq = 1, entry_ts = $5, entry_price = 100000
          WHERE id = $1`,
        [row.id, results[i]!.status, results[i]!.payout, new Date(times[i]!), times[i]! - 30_000],
      );
  };

  beforeAll(async () => {
    t = await openTestDb(kind);
  });
  afterAll(() => t.drop());

  it.each([480, -300] as const)(
    'offset %i: an order settled a moment before the platform midnight is yesterday’s',
    async (offsetMinutes) => {
      userId = (await bulkUsers(t.db, 1, 100_000))[0]!;
      const midnight = MIDNIGHT[offsetMinutes];
      // Lost 1 ms before midnight; won +800 at midnight exactly; won +2000 an hour later.
      await settleAt([midnight - 1, midnight, midnight + H]);
      const at = (now: number, offset: number = offsetMinutes) =>
        createAccountSummaries({
          db: t.db,
          orders: orderFigures(t.db),
          identity: identityChecks(t.db),
          userEvents: recordingUserEvents(),
          offsetMinutes: offset,
          now: () => now,
        }).of(userId);

      // The loss settled at 23:59:59.999 platform time is yesterday's; the win settled at
      // 00:00:00.000 is today's, until the next midnight.
      expect(await at(midnight + 2 * H)).toMatchObject({ pnlTotal: 1800, pnlToday: 2800 });
      expect(await at(midnight + 24 * H - 1)).toMatchObject({ pnlToday: 2800 });
      expect(await at(midnight + 24 * H)).toMatchObject({ pnlTotal: 1800, pnlToday: 0 });
      // The `balance` event carries the same figures.
      const events = recordingUserEvents();
      await createAccountSummaries({
        db: t.db,
        orders: orderFigures(t.db),
        identity: identityChecks(t.db),
        userEvents: events,
        offsetMinutes,
        now: () => midnight + 2 * H,
      }).publish(userId);
      expect(events.sent).toEqual([
        {
          userId: String(userId),
          event: 'balance',
          payload: expect.objectContaining({ pnlToday: 2800 }),
        },
      ]);
      // Counted from 00:00 UTC instead, the loss would be today's as well (the defect fixed).
      expect(await at(midnight + 2 * H, 0)).toMatchObject({ pnlToday: 1800 });
    },
  );

  it('GET /api/account/summary counts from the configured platform midnight', async () => {
    const midnight = MIDNIGHT[480];
    const api = await buildTestApi(t.db, {
      env: { PLATFORM_UTC_OFFSET_MINUTES: '480' },
      now: () => midnight + 30 * 60_000,
    });
    try {
      const user = await registerUser(api);
      userId = Number(user.user.id);
      await fund(t.db, userId, 100_000);
      await settleAt([midnight - 10 * 60_000, midnight + 10 * 60_000, midnight + 20 * 60_000]);
      const res = await api.http.get('/api/account/summary').set(user.auth).expect(200);
      expect(res.body).toMatchObject({ pnlTotal: 1800, pnlToday: 2800 });
    } finally {
      await api.close();
    }
  });
});

/**
 * `balance` events for many users at once share reads: each user still gets exactly their own
 * figures, once per burst, and a publish resolves only after its event went out.
 */
describe.each(dbDrivers())('balance events in a burst (%s)', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(kind);
  });
  afterAll(() => t.drop());

  it('sends every user their own figures while reading far fewer times than publishing', async () => {
    const users = await bulkUsers(t.db, 40, 0);
    for (const [i, id] of users.entries()) await fund(t.db, id, 1000 * (i + 1));
    const events = recordingUserEvents();
    let reads = 0;
    const ledgerReads: Queryable = {
      query: <R>(text: string, params?: readonly unknown[]) => {
        if (text.includes('FROM ledger_accounts WHERE owner_id = ANY')) reads++;
        return t.db.query<R>(text, params);
      },
      exec: (sql) => t.db.exec(sql),
    };
    const summaries = createAccountSummaries({
      db: ledgerReads,
      orders: orderFigures(t.db),
      identity: identityChecks(t.db),
      userEvents: events,
      offsetMinutes: 0,
    });
    // Each user published three times at once, as a placement burst does.
    const bursts = users.flatMap((id) => [id, id, id]);
    await Promise.all(bursts.map((id) => summaries.publish(id)));

    expect(reads).toBeLessThanOrEqual(3);
    const byUser = new Map(events.sent.map((e) => [Number(e.userId), e.payload]));
    expect(byUser.size).toBe(users.length);
    for (const [i, id] of users.entries())
      expect(byUser.get(id)).toMatchObject({ available: 1000 * (i + 1) });
    // Every publish of the burst is answered, none twice within one read.
    expect(events.sent.length).toBeLessThanOrEqual(2 * users.length);
  });
});
