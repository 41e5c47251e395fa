import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createReadCache, sendCached } from './read-cache';

const limits = { maxEntries: 100, maxBytes: 1_000_000, maxEntryBytes: 100_000 };

describe('the read cache', () => {
  it('makes one load for identical requests that arrive while it runs, and one JSON', async () => {
    const cache = createReadCache(limits);
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const load = async () => {
      loads++;
      await gate;
      return [{ t: 1, price: '1.00' }];
    };
    const waiting = Array.from({ length: 1000 }, () => cache.get('k', 1000, load));
    release();
    const bodies = await Promise.all(waiting);
    expect(loads).toBe(1);
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]!.json.toString()).toBe('[{"t":1,"price":"1.00"}]');
  });

  it('keeps an answer for its ttl, then loads again', async () => {
    const clock = { now: 0 };
    const cache = createReadCache(limits, () => clock.now);
    let loads = 0;
    const load = () => Promise.resolve(++loads);
    expect((await cache.get('k', 1000, load)).value).toBe(1);
    clock.now = 999;
    expect((await cache.get('k', 1000, load)).value).toBe(1);
    clock.now = 1000;
    expect((await cache.get('k', 1000, load)).value).toBe(2);
  });

  it('keeps no failure: every waiter gets the error, the next request loads again', async () => {
    const cache = createReadCache(limits);
    let loads = 0;
    const failing = async () => {
      loads++;
      await Promise.resolve();
      throw new Error('database away');
    };
    const both = [cache.get('k', 1000, failing), cache.get('k', 1000, failing)];
    for (const p of both) await expect(p).rejects.toThrow('database away');
    expect(loads).toBe(1);
    expect((await cache.get('k', 1000, () => Promise.resolve('ok'))).value).toBe('ok');
  });

  it('stays within its entries and bytes, dropping the least recently used', async () => {
    const cache = createReadCache({ maxEntries: 3, maxBytes: 1_000, maxEntryBytes: 300 });
    const load = (n: number) => () => Promise.resolve('x'.repeat(n));
    for (const k of ['a', 'b', 'c']) await cache.get(k, 60_000, load(10));
    await cache.get('a', 60_000, load(10)); // a is used again: b is now the oldest
    await cache.get('d', 60_000, load(10));
    expect(cache.size.entries).toBe(3);
    let reloaded = 0;
    await cache.get('b', 60_000, () => Promise.resolve(++reloaded));
    await cache.get('a', 60_000, () => Promise.resolve(++reloaded));
    expect(reloaded).toBe(1); // b had gone, a had stayed

    // Bytes: each answer counts twice its JSON (its objects are kept too).
    const big = createReadCache({ maxEntries: 100, maxBytes: 1_000, maxEntryBytes: 300 });
    for (let i = 0; i < 10; i++) await big.get(`k${i}`, 60_000, load(200));
    expect(big.size.bytes).toBeLessThanOrEqual(1_000);
    expect(big.size.entries).toBe(2);
    // An answer over maxEntryBytes is served, not kept.
    const huge = await big.get('huge', 60_000, load(400));
    expect(huge.json.length).toBe(402);
    expect(big.size.entries).toBe(2);
  });

  it('sends the kept bytes, gzipped once for all who take gzip, with an ETag that gives 304', async () => {
    const cache = createReadCache(limits);
    const rows = Array.from({ length: 500 }, (_, i) => ({ t: i, c: '67012.35' }));
    const app = express();
    app.get('/x', async (req, res) => {
      await sendCached(req, res, await cache.get('rows', 60_000, () => Promise.resolve(rows)));
    });
    const http = request(app);
    const plain = await http.get('/x').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.body).toEqual(rows);
    const gz = await http
      .get('/x')
      .set('Accept-Encoding', 'gzip')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    // supertest inflates what it receives: the gzip was whole and held the same JSON.
    expect(JSON.parse((gz.body as Buffer).toString())).toEqual(rows);
    const before = cache.size.bytes;
    await http.get('/x').set('Accept-Encoding', 'gzip').expect(200);
    expect(cache.size.bytes).toBe(before); // the gzip was made once
    await http.get('/x').set('If-None-Match', plain.headers.etag!).expect(304);
  });
});
