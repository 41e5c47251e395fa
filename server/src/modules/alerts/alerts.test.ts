import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PriceAlert, PriceAlerts } from '@shared/alerts/model';
import type { Message } from '@shared/content/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { recordTick } from '@tests/support/orders';
import { advanceScanned } from './alerts.repo';

describe.each(dbDrivers())('price alerts on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const list = async (auth: Record<string, string>, product?: string) =>
    (
      await api.http
        .get(`/api/alerts${product ? `?product=${product}` : ''}`)
        .set(auth)
        .expect(200)
    ).body as PriceAlerts;
  const create = (auth: Record<string, string>, body: unknown, app: TestApi = api) =>
    app.http
      .post('/api/alerts')
      .set(auth)
      .send(body as object);
  const rowCount = async () =>
    Number(
      (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM price_alerts')).rows[0]!.n,
    );
  const alertMessages = async (auth: Record<string, string>) =>
    ((await api.http.get('/api/messages').set(auth).expect(200)).body.items as Message[]).filter(
      (m) => m.kind === 'price_alert',
    );

  it('are created, listed (per product too) and deleted by their owner only', async () => {
    const u = await registerUser(api, 'alert');
    const other = await registerUser(api, 'alert');
    await recordTick(t.db, 'BTCUSDT', 6_000_000); // 60000.00
    const above = await create(u.auth, {
      product: 'BTCUSDT',
      direction: 'above',
      price: '60100.5',
    }).expect(201);
    expect(above.body).toMatchObject({
      product: 'BTCUSDT',
      direction: 'above',
      price: '60100.50',
      fired: null,
      firedAt: null,
    });
    const below = (
      await create(u.auth, { product: 'BTCUSDT', direction: 'below', price: '59000' }).expect(201)
    ).body as PriceAlert;
    const mine = await list(u.auth);
    expect(mine.active.map((a) => [a.direction, a.price])).toEqual([
      ['above', '60100.50'],
      ['below', '59000.00'],
    ]);
    expect(mine).toMatchObject({ fired: [], max: 20 });
    expect((await list(u.auth, 'ETHUSDT')).active).toEqual([]);
    expect((await list(u.auth, 'BTCUSDT')).active).toHaveLength(2);
    // Someone else's alert is not theirs to see or delete.
    expect((await list(other.auth)).active).toEqual([]);
    const theirs = await api.http.delete(`/api/alerts/${below.id}`).set(other.auth).expect(404);
    expect(theirs.body.error.code).toBe('NOT_FOUND');
    await api.http.delete(`/api/alerts/${below.id}`).set(u.auth).expect(204);
    await api.http.delete(`/api/alerts/${below.id}`).set(u.auth).expect(404);
    expect((await list(u.auth)).active.map((a) => a.id)).toEqual([above.body.id]);
    await api.http.get('/api/alerts').expect(401);
    await api.http.post('/api/alerts').send({}).expect(401);
  });

  it('refuse bad input with stable codes and write nothing', async () => {
    const u = await registerUser(api, 'alert');
    await recordTick(t.db, 'XAUUSD', 200_000); // 2000.00
    const before = await rowCount();
    const refusals: [unknown, number, string][] = [
      [{}, 400, 'VALIDATION_FAILED'],
      [{ product: 'XAUUSD', direction: 'above', price: '' }, 400, 'VALIDATION_FAILED'],
      [{ product: 'XAUUSD', direction: 'above', price: '9'.repeat(40) }, 400, 'VALIDATION_FAILED'],
      [{ product: 'XAUUSD', direction: 'above', price: '9'.repeat(16) }, 400, 'VALIDATION_FAILED'],
      [{ product: 'XAUUSD', direction: 'below', price: '-5' }, 400, 'VALIDATION_FAILED'],
      [{ product: 'XAUUSD', direction: 'below', price: '0' }, 400, 'VALIDATION_FAILED'],
      [{ product: 'XAUUSD', direction: 'above', price: '2100.123' }, 400, 'VALIDATION_FAILED'],
      [{ product: 'XAUUSD', direction: 'above', price: '2100.' }, 400, 'VALIDATION_FAILED'],
      [{ product: 'XAUUSD', direction: 'above', price: '1e4' }, 400, 'VALIDATION_FAILED'],
      [{ product: 'XAUUSD', direction: 'above', price: 2100 }, 400, 'VALIDATION_FAILED'],
      [{ product: 'XAUUSD', direction: 'sideways', price: '2100' }, 400, 'VALIDATION_FAILED'],
      [{ product: 42, direction: 'above', price: '2100' }, 400, 'VALIDATION_FAILED'],
      [{ product: 'NOPE', direction: 'above', price: '2100' }, 404, 'NOT_FOUND'],
      // Already met: an above alert at or under the price, a below one at or over it.
      [{ product: 'XAUUSD', direction: 'above', price: '2000' }, 409, 'ALERT_ALREADY_MET'],
      [{ product: 'XAUUSD', direction: 'above', price: '1999.99' }, 409, 'ALERT_ALREADY_MET'],
      [{ product: 'XAUUSD', direction: 'below', price: '2000.00' }, 409, 'ALERT_ALREADY_MET'],
      [{ product: 'XAUUSD', direction: 'below', price: '2500' }, 409, 'ALERT_ALREADY_MET'],
    ];
    for (const [body, status, code] of refusals) {
      const res = await create(u.auth, body);
      expect([res.status, res.body.error?.code], JSON.stringify(body)).toEqual([status, code]);
    }
    const tooFine = await create(u.auth, {
      product: 'XAUUSD',
      direction: 'above',
      price: '2100.123',
    });
    expect(tooFine.body.error.field).toBe('price');
    await api.http.delete('/api/alerts/abc').set(u.auth).expect(400);
    await api.http.delete('/api/alerts/999999999').set(u.auth).expect(404);
    expect(await rowCount()).toBe(before);
  });

  it('are capped per user (PRICE_ALERTS_MAX), also when created at once', async () => {
    const capped = await buildTestApi(t.db, { env: { PRICE_ALERTS_MAX: '3' } });
    try {
      const u = await registerUser(capped, 'alert');
      await recordTick(t.db, 'XAGUSD', 25_000); // 25.000
      const at = (i: number) => ({ product: 'XAGUSD', direction: 'above', price: `3${i}` });
      const once = await Promise.all([0, 1, 2, 3, 4].map((i) => create(u.auth, at(i), capped)));
      expect(once.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409]);
      for (const r of once.filter((x) => x.status === 409))
        expect(r.body.error.code).toBe('ALERT_LIMIT');
      const over = await create(u.auth, at(9), capped);
      expect([over.status, over.body.error.code]).toEqual([409, 'ALERT_LIMIT']);
      const listed = (await capped.http.get('/api/alerts').set(u.auth).expect(200))
        .body as PriceAlerts;
      expect([listed.active.length, listed.max]).toEqual([3, 3]);
      // Deleting one makes room again.
      await capped.http.delete(`/api/alerts/${listed.active[0]!.id}`).set(u.auth).expect(204);
      await create(u.auth, at(9), capped).expect(201);
    } finally {
      await capped.close();
    }
  });

  it('fire once, at the first crossing tick after creation, with one message and one live notice', async () => {
    const u = await registerUser(api, 'alert');
    await recordTick(t.db, 'ETHUSDT', 300_000); // 3000.00
    const above = (
      await create(u.auth, { product: 'ETHUSDT', direction: 'above', price: '3010' }).expect(201)
    ).body as PriceAlert;
    const below = (
      await create(u.auth, { product: 'ETHUSDT', direction: 'below', price: '2990' }).expect(201)
    ).body as PriceAlert;
    await recordTick(t.db, 'ETHUSDT', 300_999); // 3009.99: not yet
    expect((await api.alerts.evaluate()).map((a) => a.id)).not.toContain(above.id);
    expect((await list(u.auth)).active).toHaveLength(2);
    const crossing = await recordTick(t.db, 'ETHUSDT', 301_000); // 3010.00: at the price counts
    await recordTick(t.db, 'ETHUSDT', 302_000); // a later crossing is not the one
    const fired = (await api.alerts.evaluate()).filter((a) => a.id === above.id);
    expect(fired).toHaveLength(1);
    expect(fired[0]!.fired).toEqual({ seq: crossing.seq, ts: crossing.ts, price: '3010.00' });
    // Evaluating again fires nothing more.
    expect((await api.alerts.evaluate()).map((a) => a.id)).not.toContain(above.id);
    const now = await list(u.auth);
    expect(now.active.map((a) => a.id)).toEqual([below.id]);
    expect(now.fired.map((a) => [a.id, a.fired?.seq])).toEqual([[above.id, crossing.seq]]);
    // One message, naming the tick; one `alert` and one `message` event.
    const messages = await alertMessages(u.auth);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.params).toMatchObject({
      product: 'ETHUSDT',
      ref: above.id,
      direction: 'above',
      threshold: '3010.00',
      price: '3010.00',
      tick: crossing.seq,
      at: crossing.ts,
    });
    const events = api.userEvents.sent.filter((e) => e.userId === u.user.id);
    expect(events.filter((e) => e.event === 'alert')).toHaveLength(1);
    expect(
      events.filter(
        (e) => e.event === 'message' && (e.payload as { id: string }).id === messages[0]!.id,
      ),
    ).toHaveLength(1);
    // The below alert fires on its own crossing.
    const down = await recordTick(t.db, 'ETHUSDT', 298_000);
    const second = (await api.alerts.evaluate()).filter((a) => a.id === below.id);
    expect(second.map((a) => a.fired?.seq)).toEqual([down.seq]);
    expect(await alertMessages(u.auth)).toHaveLength(2);
  });

  it('never fire on a tick recorded before their creation', async () => {
    const u = await registerUser(api, 'alert');
    await recordTick(t.db, 'SOLUSDT', 150_000); // 150.000: above what the alert will ask
    await recordTick(t.db, 'SOLUSDT', 100_000); // 100.000: the price at creation
    const a = (
      await create(u.auth, { product: 'SOLUSDT', direction: 'above', price: '120' }).expect(201)
    ).body as PriceAlert;
    expect((await api.alerts.evaluate()).map((x) => x.id)).not.toContain(a.id);
    await recordTick(t.db, 'SOLUSDT', 110_000);
    expect((await api.alerts.evaluate()).map((x) => x.id)).not.toContain(a.id);
    // The scan cursor moves past ticks that do not cross, never past one that does.
    await advanceScanned(t.db);
    const cross = await recordTick(t.db, 'SOLUSDT', 120_500);
    await advanceScanned(t.db);
    const fired = (await api.alerts.evaluate()).filter((x) => x.id === a.id);
    expect(fired.map((x) => x.fired)).toEqual([{ seq: cross.seq, ts: cross.ts, price: '120.500' }]);
    expect(await alertMessages(u.auth)).toHaveLength(1);
  });

  it('fire each alert once when several evaluations run at once', async () => {
    const users = await Promise.all([1, 2, 3].map(() => registerUser(api, 'alert')));
    await recordTick(t.db, 'EURUSD', 108_000); // 1.08000
    const ids: string[] = [];
    for (const u of users)
      for (const price of ['1.081', '1.0805', '1.08001'])
        ids.push(
          (await create(u.auth, { product: 'EURUSD', direction: 'above', price }).expect(201)).body
            .id,
        );
    await recordTick(t.db, 'EURUSD', 108_200);
    const runs = await Promise.all([1, 2, 3, 4].map(() => api.alerts.evaluate()));
    const fired = runs.flat().filter((a) => ids.includes(a.id));
    expect(fired.map((a) => a.id).sort()).toEqual([...ids].sort());
    for (const u of users) expect(await alertMessages(u.auth)).toHaveLength(3);
  });
});
