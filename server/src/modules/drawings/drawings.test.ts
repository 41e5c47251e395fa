import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAWINGS_PER_PRODUCT } from '@shared/drawings/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { atPrecision } from './drawings.service';

type User = Awaited<ReturnType<typeof registerUser>>;
interface Drawing {
  id: string;
  product: string;
  kind: string;
  points: { time: number; price: string }[];
  createdAt: number;
}

describe('a price at the product’s decimals', () => {
  it('pads, keeps and refuses finer ones', () => {
    expect(atPrecision('67000', 2)).toBe('67000.00');
    expect(atPrecision('67000.5', 2)).toBe('67000.50');
    expect(atPrecision('067000.500', 2)).toBe('67000.50');
    expect(atPrecision('0.5', 0)).toBeNull();
    expect(atPrecision('67000.505', 2)).toBeNull();
    expect(atPrecision('1.1', 0)).toBeNull();
    expect(atPrecision('12', 0)).toBe('12');
  });
});

describe.each(dbDrivers())('chart drawings on %s', (kind) => {
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

  const now = Date.now();
  const list = async (u: User, product = 'BTCUSDT') =>
    (
      (await api.http.get('/api/drawings').query({ product }).set(u.auth).expect(200)).body as {
        items: Drawing[];
      }
    ).items;
  const post = (u: User, body: object) => api.http.post('/api/drawings').set(u.auth).send(body);
  const hline = (price: string, time = now, product = 'BTCUSDT') => ({
    product,
    kind: 'hline',
    points: [{ time, price }],
  });
  const rows = async (u: User) =>
    Number(
      (
        await t.db.query<{ n: string }>(
          'SELECT count(*)::text AS n FROM chart_drawings WHERE user_id = $1',
          [u.user.id],
        )
      ).rows[0]!.n,
    );
  const eventsOf = (u: User) =>
    api.userEvents.sent
      .filter((e) => e.event === 'drawings' && e.userId === String(u.user.id))
      .map((e) => e.payload);

  it('are created, listed per product, removed one by one and cleared, each change an event', async () => {
    const u = await registerUser(api, 'drw');
    expect(await list(u)).toEqual([]);
    const line = await post(u, hline('67000.5')).expect(201);
    expect(line.body).toMatchObject({
      product: 'BTCUSDT',
      kind: 'hline',
      points: [{ time: now, price: '67000.50' }],
    });
    expect(line.body.id).toMatch(/^\d+$/);
    // A trend line's points come back the earlier first.
    const trend = await post(u, {
      product: 'BTCUSDT',
      kind: 'trend',
      points: [
        { time: now, price: '67100' },
        { time: now - 60_000, price: '66900.25' },
      ],
    }).expect(201);
    expect(trend.body.points).toEqual([
      { time: now - 60_000, price: '66900.25' },
      { time: now, price: '67100.00' },
    ]);
    await post(u, hline('1.08345', now, 'EURUSD')).expect(201);
    expect((await list(u)).map((d) => d.id)).toEqual([line.body.id, trend.body.id]);
    expect((await list(u, 'EURUSD')).map((d) => d.points[0]!.price)).toEqual(['1.08345']);
    expect(eventsOf(u)).toEqual([
      { product: 'BTCUSDT' },
      { product: 'BTCUSDT' },
      { product: 'EURUSD' },
    ]);

    await api.http.delete(`/api/drawings/${line.body.id}`).set(u.auth).expect(204);
    expect((await list(u)).map((d) => d.id)).toEqual([trend.body.id]);
    // Removed already: nothing to remove.
    const again = await api.http.delete(`/api/drawings/${line.body.id}`).set(u.auth).expect(404);
    expect(again.body.error.code).toBe('NOT_FOUND');

    await api.http.delete('/api/drawings').query({ product: 'BTCUSDT' }).set(u.auth).expect(204);
    expect(await list(u)).toEqual([]);
    expect(await list(u, 'EURUSD')).toHaveLength(1);
    expect(eventsOf(u).slice(3)).toEqual([{ product: 'BTCUSDT' }, { product: 'BTCUSDT' }]);
    // Clearing what is empty is no error and tells no device anything.
    await api.http.delete('/api/drawings').query({ product: 'BTCUSDT' }).set(u.auth).expect(204);
    expect(eventsOf(u)).toHaveLength(5);
  });

  it('are each user’s own: another user neither sees nor removes them', async () => {
    const [a, b] = [await registerUser(api, 'drw'), await registerUser(api, 'drw')];
    const mine = await post(a, hline('65000')).expect(201);
    expect(await list(b)).toEqual([]);
    const theirs = await api.http.delete(`/api/drawings/${mine.body.id}`).set(b.auth).expect(404);
    expect(theirs.body.error.code).toBe('NOT_FOUND');
    await api.http.delete('/api/drawings').query({ product: 'BTCUSDT' }).set(b.auth).expect(204);
    expect((await list(a)).map((d) => d.id)).toEqual([mine.body.id]);
    expect(eventsOf(b)).toEqual([]);
    await api.http.get('/api/drawings').query({ product: 'BTCUSDT' }).expect(401);
    await api.http.post('/api/drawings').send(hline('65000')).expect(401);
    await api.http.delete(`/api/drawings/${mine.body.id}`).expect(401);
  });

  it('refuse bad input with a stable code and write nothing', async () => {
    const u = await registerUser(api, 'drw');
    const trend = (points: unknown) => ({ product: 'BTCUSDT', kind: 'trend', points });
    const bad: [object, number, string][] = [
      [{}, 400, 'VALIDATION_FAILED'],
      [[], 400, 'VALIDATION_FAILED'],
      [{ product: 'BTCUSDT', kind: 'hline', points: [] }, 400, 'VALIDATION_FAILED'],
      [
        { product: 'BTCUSDT', kind: 'circle', points: [{ time: now, price: '1' }] },
        400,
        'VALIDATION_FAILED',
      ],
      [hline('-65000'), 400, 'VALIDATION_FAILED'],
      [hline('0'), 400, 'VALIDATION_FAILED'],
      [hline('0.00'), 400, 'VALIDATION_FAILED'],
      [hline('1e5'), 400, 'VALIDATION_FAILED'],
      [hline('9'.repeat(13)), 400, 'VALIDATION_FAILED'],
      [hline('9'.repeat(5000)), 400, 'VALIDATION_FAILED'],
      [hline('65000.123'), 400, 'VALIDATION_FAILED'],
      [{ ...hline('65000'), points: [{ time: now, price: 65000 }] }, 400, 'VALIDATION_FAILED'],
      [
        { ...hline('65000'), points: [{ time: String(now), price: '65000' }] },
        400,
        'VALIDATION_FAILED',
      ],
      [hline('65000', now + 0.5), 400, 'VALIDATION_FAILED'],
      [hline('65000', -1), 400, 'VALIDATION_FAILED'],
      [hline('65000', now + 400 * 86_400_000), 400, 'VALIDATION_FAILED'],
      [hline('65000', 1e300), 400, 'VALIDATION_FAILED'],
      [{ ...hline('65000'), extra: true }, 400, 'VALIDATION_FAILED'],
      [
        { ...hline('65000'), points: [{ time: now, price: '65000', note: 'x' }] },
        400,
        'VALIDATION_FAILED',
      ],
      [
        {
          product: 'BTCUSDT',
          kind: 'hline',
          points: [
            { time: now, price: '1' },
            { time: now + 1, price: '2' },
          ],
        },
        400,
        'VALIDATION_FAILED',
      ],
      [trend([{ time: now, price: '1' }]), 400, 'VALIDATION_FAILED'],
      [
        trend([
          { time: now, price: '1' },
          { time: now, price: '2' },
        ]),
        400,
        'VALIDATION_FAILED',
      ],
      [
        trend([1, 2, 3].map((i) => ({ time: now - i * 1000, price: '1' }))),
        400,
        'VALIDATION_FAILED',
      ],
      [
        trend(Array.from({ length: 1_000 }, (_, i) => ({ time: now - i, price: '1' }))),
        400,
        'VALIDATION_FAILED',
      ],
      [hline('65000', now, 'NOPE'), 404, 'NOT_FOUND'],
      [hline('65000', now, 'btcusdt'), 404, 'NOT_FOUND'],
      [hline('65000', now, 'X'.repeat(17)), 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code] of bad) {
      const res = await post(u, body);
      expect([JSON.stringify(body).slice(0, 80), res.status]).toEqual([
        JSON.stringify(body).slice(0, 80),
        status,
      ]);
      expect(res.body.error.code).toBe(code);
    }
    // A body that is not JSON at all, and one far too large.
    const text = await api.http
      .post('/api/drawings')
      .set(u.auth)
      .set('Content-Type', 'application/json')
      .send('{"product":');
    expect(text.status).toBe(400);
    const huge = await post(u, { ...hline('65000'), pad: 'x'.repeat(200_000) });
    expect(huge.status).toBe(413);
    // Reads and removals with bad names.
    for (const [path, status] of [
      ['/api/drawings?product=NOPE', 404],
      ['/api/drawings', 400],
      ['/api/drawings?product=' + 'X'.repeat(40), 400],
    ] as const) {
      expect((await api.http.get(path).set(u.auth)).status).toBe(status);
      expect((await api.http.delete(path).set(u.auth)).status).toBe(status);
    }
    for (const id of ['abc', '-1', '1.5', '9'.repeat(19)])
      expect((await api.http.delete(`/api/drawings/${id}`).set(u.auth)).status).toBe(400);
    expect(await rows(u)).toBe(0);
    expect(eventsOf(u)).toEqual([]);
  });

  it('hold one copy of a drawing sent twice at once, and no more than the cap even at once', async () => {
    const u = await registerUser(api, 'drw');
    const twice = await Promise.all([post(u, hline('64000')), post(u, hline('64000.00'))]);
    expect(twice.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(twice.find((r) => r.status === 409)!.body.error.code).toBe('DRAWING_EXISTS');
    expect(await rows(u)).toBe(1);

    for (let i = 1; i < DRAWINGS_PER_PRODUCT - 1; i++)
      await post(u, hline(String(60000 + i))).expect(201);
    expect(await rows(u)).toBe(DRAWINGS_PER_PRODUCT - 1);
    // One place left, two asking for it at once: one gets it.
    const race = await Promise.all([post(u, hline('50001')), post(u, hline('50002'))]);
    expect(race.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(race.find((r) => r.status === 409)!.body.error.code).toBe('DRAWING_LIMIT');
    const over = await post(u, hline('50003')).expect(409);
    expect(over.body.error.code).toBe('DRAWING_LIMIT');
    expect(await list(u)).toHaveLength(DRAWINGS_PER_PRODUCT);
    // The cap is per product: another product still takes drawings.
    await post(u, hline('2400.5', now, 'XAUUSD')).expect(201);
    expect(await rows(u)).toBe(DRAWINGS_PER_PRODUCT + 1);
  });

  it('refuse a faulty row at the database too (the checks hold the shape)', async () => {
    const u = await registerUser(api, 'drw');
    for (const [kindOf, t2, p2] of [
      ['hline', now, '1'],
      ['trend', null, null],
      ['trend', now - 1, '1'],
      ['circle', null, null],
    ] as const)
      await expect(
        t.db.query(
          `INSERT INTO chart_drawings (user_id, product_id, kind, t1, p1, t2, p2)
           VALUES ($1, 'BTCUSDT', $2, $3, 1, $4, $5)`,
          [u.user.id, kindOf, now, t2, p2],
        ),
      ).rejects.toThrow();
    await expect(
      t.db.query(
        `INSERT INTO chart_drawings (user_id, product_id, kind, t1, p1) VALUES ($1, 'BTCUSDT', 'hline', $2, -1)`,
        [u.user.id, now],
      ),
    ).rejects.toThrow();
    expect(await rows(u)).toBe(0);
  });
});
