import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type request from 'supertest';
import { aggregateTicks, mergeCandles, type CandleUnits } from '@shared/aggregate';
import { priceToUnits } from '@shared/price';
import { intervalMs, intervals, type Candle, type Product } from '@shared/product';
import { defaultCatalogue } from '@sim/catalogue';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { WEDNESDAY_AFTERNOON, seedTape } from '@tests/support/market';
import { buildTestApi } from '@tests/support/api';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { createMarketService, type MarketService } from './market.service';

const NOW = WEDNESDAY_AFTERNOON;

describe.each(dbDrivers())('market state from the tape on %s', (kind) => {
  it('rebuilt from the tape alone (as an api does on start), equals the live state of the simulator', async () => {
    const t = await openTestDb(kind);
    const bus = createMemoryBus(createMemoryHub());
    try {
      const live = await seedTape(t.db, { at: NOW, hours: 1 });
      const market = await createMarketService({
        db: t.db,
        bus,
        catalogue: defaultCatalogue,
        now: () => NOW,
      });
      expect(market.products().map((p) => [p.id, p.stats24h, p.last])).toEqual(
        live.products.map((p) => [
          p.id,
          p.stats,
          p.last && { seq: p.last.seq, ts: p.last.ts, price: p.last.price },
        ]),
      );
      await market.close();
    } finally {
      await bus.close();
      await t.drop();
    }
  });
});

describe.each(dbDrivers())('market REST on %s', (kind) => {
  let t: TestDb;
  let market: MarketService;
  let api: request.Agent | ReturnType<typeof request>;

  beforeAll(async () => {
    t = await openTestDb(kind);
    await seedTape(t.db, { at: NOW, hours: 3 });
    const built = await buildTestApi(t.db, { now: () => NOW });
    market = built.market;
    api = built.http;
  });
  afterAll(async () => {
    await market.close();
    await t.drop();
  });

  it('lists all 12 products with a last tick and full 24h stats from the tape', async () => {
    const res = await api.get('/api/market/products').expect(200);
    const products = res.body as Product[];
    expect(products.map((p) => p.id)).toEqual(defaultCatalogue.map((p) => p.id));
    for (const p of products) {
      expect(p.last).not.toBeNull();
      expect(p.status).toBe('open');
      expect(p.durations.map((d) => d.seconds)).toEqual([30, 60, 120, 300]);
      const s = p.stats24h;
      expect(Number(s.high)).toBeGreaterThanOrEqual(Number(s.low));
      expect(s.last).toBe(p.last!.price);
      expect(Number(s.volume)).toBeGreaterThan(0);
      expect(s.open.split('.')[1]?.length ?? 0).toBe(p.precision);
    }
  });

  it('searches products by name, ignoring case and punctuation', async () => {
    const ids = async (q: string) =>
      ((await api.get('/api/market/products').query({ q }).expect(200)).body as Product[]).map(
        (p) => p.id,
      );
    expect(await ids('eur')).toEqual(['EURUSD']);
    expect(await ids('BTC/')).toEqual(['BTCUSDT']);
    expect(await ids('/usdt')).toHaveLength(5);
    expect(await ids('zzz')).toEqual([]);
    expect(await ids('')).toHaveLength(12);
    await api
      .get('/api/market/products')
      .query({ q: 'x'.repeat(41) })
      .expect(400);
  });

  it('searches products by their name in any of the ten languages', async () => {
    const ids = async (q: string) =>
      ((await api.get('/api/market/products').query({ q }).expect(200)).body as Product[]).map(
        (p) => p.id,
      );
    // A CJK query used to fold to nothing and match all twelve.
    expect(await ids('黄金')).toEqual(['XAUUSD']);
    expect(await ids('黃金')).toEqual(['XAUUSD']);
    expect(await ids('金')).toEqual(['XAUUSD']);
    expect(await ids('gold')).toEqual(['XAUUSD']);
    expect(await ids('Vàng')).toEqual(['XAUUSD']);
    expect(await ids('btc')).toEqual(['BTCUSDT']);
    expect(await ids('Bitcoin')).toEqual(['BTCUSDT']);
    expect(await ids('比特币')).toEqual(['BTCUSDT']);
    expect(await ids('ＢＴＣ')).toEqual(['BTCUSDT']);
    expect(await ids('原油')).toEqual(['WTIUSD']);
    expect(await ids('钻石')).toEqual([]);
  });

  it('answers one product, and 404 NOT_FOUND for an unknown one', async () => {
    const res = await api.get('/api/market/products/XAUUSD').expect(200);
    expect(res.body).toMatchObject({ id: 'XAUUSD', category: 'metals', precision: 2 });
    const missing = await api.get('/api/market/products/NOPE').expect(404);
    expect(missing.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
    await api.get('/api/market/candles').query({ product: 'NOPE', interval: '1m' }).expect(404);
  });

  it.each(intervals)(
    'serves %s candles oldest first, aligned to the interval',
    async (interval) => {
      const res = await api
        .get('/api/market/candles')
        .query({ product: 'BTCUSDT', interval, limit: 50 })
        .expect(200);
      const candles = res.body as Candle[];
      expect(candles.length).toBeGreaterThan(0);
      expect(candles.length).toBeLessThanOrEqual(50);
      for (let i = 0; i < candles.length; i++) {
        expect(candles[i]!.t % intervalMs[interval]).toBe(0);
        if (i) expect(candles[i]!.t).toBeGreaterThan(candles[i - 1]!.t);
        const [o, h, l, c] = [candles[i]!.o, candles[i]!.h, candles[i]!.l, candles[i]!.c].map(
          Number,
        ) as [number, number, number, number];
        expect(h).toBeGreaterThanOrEqual(Math.max(o, c));
        expect(l).toBeLessThanOrEqual(Math.min(o, c));
      }
    },
  );

  it('rolls 1-minute candles up exactly as the shared aggregation does', async () => {
    const toUnits = (c: Candle): CandleUnits => ({
      t: c.t,
      o: priceToUnits(c.o, 2),
      h: priceToUnits(c.h, 2),
      l: priceToUnits(c.l, 2),
      c: priceToUnits(c.c, 2),
      v: 0,
      a: 0n,
      n: 0,
    });
    const minutes = (
      (
        await api
          .get('/api/market/candles')
          .query({ product: 'BTCUSDT', interval: '1m', limit: 1000 })
      ).body as Candle[]
    ).map(toUnits);
    for (const interval of ['5m', '15m', '1h'] as const) {
      const rolled = (
        (await api.get('/api/market/candles').query({ product: 'BTCUSDT', interval, limit: 1000 }))
          .body as Candle[]
      ).map(toUnits);
      const expected = mergeCandles(minutes, intervalMs[interval]);
      // The oldest bucket may be cut by the 1m page's edge; compare the complete ones.
      const strip = (cs: CandleUnits[]) =>
        cs.slice(1).map(({ t, o, h, l, c }) => ({ t, o, h, l, c }));
      expect(strip(rolled)).toEqual(strip(expected));
    }
  });

  it('pages candles backwards with before', async () => {
    const page1 = (
      await api.get('/api/market/candles').query({ product: 'ETHUSDT', interval: '1m', limit: 30 })
    ).body as Candle[];
    const page2 = (
      await api
        .get('/api/market/candles')
        .query({ product: 'ETHUSDT', interval: '1m', limit: 30, before: page1[0]!.t })
    ).body as Candle[];
    expect(page2).toHaveLength(30);
    expect(page2.at(-1)!.t).toBe(page1[0]!.t - 60_000);
  });

  it('serves the recorded tape, consecutive in seq, matching the stored candles', async () => {
    const from = NOW - 10 * 60_000;
    const res = await api
      .get('/api/market/ticks')
      .query({ product: 'BTCUSDT', from, to: NOW, limit: 1000 })
      .expect(200);
    const ticks = res.body as { seq: number; ts: number; price: string }[];
    expect(ticks.length).toBeGreaterThan(500);
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]!.seq).toBe(ticks[i - 1]!.seq + 1);
    expect(ticks.every((tk) => tk.ts >= from && tk.ts <= NOW)).toBe(true);
    // Whole minutes inside the window: the candle's o/h/l/c are those of its ticks.
    const byMinute = aggregateTicks(
      ticks.map((tk) => ({ ts: tk.ts, price: priceToUnits(tk.price, 2), qty: 0 })),
      60_000,
    );
    const stored = (
      await api.get('/api/market/candles').query({ product: 'BTCUSDT', interval: '1m', limit: 15 })
    ).body as Candle[];
    const full = byMinute.slice(1, -1);
    expect(full.length).toBeGreaterThan(3);
    for (const c of full) {
      const s = stored.find((x) => x.t === c.t)!;
      expect([
        priceToUnits(s.o, 2),
        priceToUnits(s.h, 2),
        priceToUnits(s.l, 2),
        priceToUnits(s.c, 2),
      ]).toEqual([c.o, c.h, c.l, c.c]);
    }
  });

  it.each([
    [{ product: 'BTCUSDT', interval: '2m' }, 'interval'],
    [{ product: 'BTCUSDT', interval: '1m', limit: '0' }, 'limit'],
    [{ product: 'BTCUSDT', interval: '1m', limit: '1001' }, 'limit'],
    [{ product: 'BTCUSDT', interval: '1m', limit: '1.5' }, 'limit'],
    [{ product: 'BTCUSDT', interval: '1m', limit: 'abc' }, 'limit'],
    [{ product: 'BTCUSDT', interval: '1m', before: '-5' }, 'before'],
    [{ interval: '1m' }, 'product'],
  ])('refuses bad candle queries with 400 naming the field (%j)', async (query, field) => {
    const res = await api.get('/api/market/candles').query(query).expect(400);
    expect(res.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', field } });
  });

  it.each([
    [{ product: 'BTCUSDT', from: '200', to: '100' }, 'from'],
    [{ product: 'BTCUSDT', from: 'yesterday' }, 'from'],
    [{ product: 'BTCUSDT', limit: '5000' }, 'limit'],
  ])('refuses bad tape queries with 400 naming the field (%j)', async (query, field) => {
    const res = await api.get('/api/market/ticks').query(query).expect(400);
    expect(res.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', field } });
  });
});
