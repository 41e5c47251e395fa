import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { fund, liveTick, publishMarket } from '@tests/support/orders';

/**
 * Unseen results (DECISIONS.md, Unseen results): GET /api/orders/results/unseen lists the caller's
 * settled orders no device acknowledged, newest first; POST /api/orders/results/seen acknowledges
 * the caller's own, once, and tells the user's other devices.
 */
describe.each(dbDrivers())('unseen results on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { env: { ORDER_RATE: 'off' } });
    await publishMarket(api.bus, { BTCUSDT: 'open' });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  type Trader = Awaited<ReturnType<typeof registerUser>>;
  const trader = async (): Promise<Trader> => {
    const u = await registerUser(api, 'seen');
    await fund(t.db, u.user.id, 100_000);
    return u;
  };
  const place = async (u: Trader): Promise<Order> => {
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
    const body = { productId: 'BTCUSDT', direction: 'up', amount: 1_000, duration: 30 };
    return (await api.http.post('/api/orders').set(u.auth).send(body).expect(201)).body as Order;
  };
  /**
   * Settles an order as lost `agoMs` before now, in SQL: these tests are about who sees a result,
   * not how it was reached (settlement has its own tests), so the tape and the worker stay out.
   */
  const settle = (id: string, agoMs = 0) =>
    t.db.query(
      `UPDATE orders SET status = 'lost', payout = 0, entry_seq = 1, entry_ts = accepted_ms,
              entry_price = 6700000, exit_seq = 2, exit_ts = expires_ms, exit_price = 6690000,
              settled_at = now() - make_interval(secs => $2::double precision / 1000)
        WHERE id = $1`,
      [id, agoMs],
    );
  const unseen = async (u: Trader) =>
    (
      (await api.http.get('/api/orders/results/unseen').set(u.auth).expect(200)).body as {
        items: Order[];
      }
    ).items.map((o) => o.id);
  const seen = (u: Trader, ids: unknown) =>
    api.http.post('/api/orders/results/seen').set(u.auth).send({ ids });
  const resultsEvents = (u: Trader) =>
    api.userEvents.sent
      .filter((e) => e.event === 'results' && e.userId === String(u.user.id))
      .map((e) => e.payload);

  it('lists only the caller’s settled, unacknowledged orders, newest first', async () => {
    const [a, b] = await Promise.all([trader(), trader()]);
    const older = await place(a);
    const newer = await place(a);
    const open = await place(a);
    const theirs = await place(b);
    await settle(older.id, 5_000);
    await settle(newer.id, 1_000);
    await settle(theirs.id);
    expect(await unseen(a)).toEqual([newer.id, older.id]);
    expect(await unseen(b)).toEqual([theirs.id]);
    expect(await unseen(a)).not.toContain(open.id);
    // A result settled more than a week ago is history, not news.
    const ancient = await place(a);
    await settle(ancient.id, 8 * 24 * 3_600_000);
    expect(await unseen(a)).toEqual([newer.id, older.id]);
  });

  it('acknowledges only the caller’s own results, idempotently, and tells their devices once', async () => {
    const [a, b] = await Promise.all([trader(), trader()]);
    const mine = await place(a);
    const open = await place(a);
    const theirs = await place(b);
    await settle(mine.id);
    await settle(theirs.id);
    // Someone else's order, an open one and an unknown id are ignored, not acknowledged.
    const first = await seen(a, [mine.id, theirs.id, open.id, '999999999']).expect(200);
    expect(first.body).toEqual({ ids: [mine.id] });
    expect(await unseen(a)).toEqual([]);
    expect(await unseen(b)).toEqual([theirs.id]);
    expect(resultsEvents(a)).toEqual([{ ids: [mine.id] }]);
    expect(resultsEvents(b)).toEqual([]);
    // Again: nothing changes, nothing is announced.
    expect((await seen(a, [mine.id]).expect(200)).body).toEqual({ ids: [] });
    expect(resultsEvents(a)).toHaveLength(1);
    // The open order, once settled, is news again.
    await settle(open.id);
    expect(await unseen(a)).toEqual([open.id]);
  });

  it('acknowledges a result once when two devices send it at the same time', async () => {
    const a = await trader();
    const o = await place(a);
    await settle(o.id);
    const answers = await Promise.all([seen(a, [o.id]), seen(a, [o.id]), seen(a, [o.id])]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(answers.flatMap((r) => (r.body as { ids: string[] }).ids)).toEqual([o.id]);
    expect(resultsEvents(a)).toEqual([{ ids: [o.id] }]);
    expect(await unseen(a)).toEqual([]);
  });

  it.each([
    ['no body', undefined],
    ['an empty list', []],
    ['a word', ['abc']],
    ['a number, not a string', [12]],
    ['a negative id', ['-1']],
    ['too many ids', Array.from({ length: 101 }, (_, i) => String(i + 1))],
    ['ids not a list', '12'],
  ])('refuses %s with VALIDATION_FAILED on ids', async (_, ids) => {
    const a = await trader();
    const res = await api.http
      .post('/api/orders/results/seen')
      .set(a.auth)
      .send(ids === undefined ? {} : { ids });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    expect((res.body as { error: { field: string } }).error.field).toMatch(/^ids/);
  });

  it('needs a session', async () => {
    await api.http.get('/api/orders/results/unseen').expect(401);
    await api.http
      .post('/api/orders/results/seen')
      .send({ ids: ['1'] })
      .expect(401);
  });
});
