import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, type TestApi } from '@tests/support/api';
import { opsAuth } from '@tests/support/wallet';
import { seedContentOnce } from './seed';

/**
 * Operators replace a language's Home banners or highlights as a whole set, in order
 * (`PUT /api/ops/banners/:lang`, `/highlights/:lang`, `npm run ops -- banners set`): what Home
 * then shows in that language. A refused set writes nothing.
 */
describe.each(dbDrivers())('Home banners and highlights by operators (%s)', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    await seedContentOnce(t.db);
    api = await buildTestApi(t.db);
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const home = async (lang: string) =>
    (await api.http.get(`/api/content/home?lang=${lang}`).expect(200)).body as {
      banners: { title: string; subtitle: string; link: string | null; theme: string }[];
      highlights: { icon: string; title: string; body: string }[];
    };

  it('replaces a language’s banners in order, and an empty set falls back to zh-CN’s', async () => {
    const zh = await home('zh-CN');
    const banners = [
      {
        title: 'Practice first',
        subtitle: 'Try it with practice money',
        link: '/pages/order/order',
        theme: 'green',
      },
      { title: 'Savings', theme: 'amber' },
    ];
    const res = await api.http
      .put('/api/ops/banners/en')
      .set(opsAuth)
      .send({ banners })
      .expect(200);
    const expected = [
      {
        title: 'Practice first',
        subtitle: 'Try it with practice money',
        link: '/pages/order/order',
        theme: 'green',
      },
      { title: 'Savings', subtitle: '', link: null, theme: 'amber' },
    ];
    expect(res.body.banners).toMatchObject(expected);
    expect((await home('en')).banners).toMatchObject(expected);
    expect(await home('zh-CN')).toEqual(zh); // other languages untouched

    await api.http.put('/api/ops/banners/en').set(opsAuth).send({ banners: [] }).expect(200);
    expect((await home('en')).banners).toEqual(zh.banners);
  });

  it('replaces a language’s highlights', async () => {
    const highlights = [
      { icon: 'shield', title: 'Fair prices', body: 'Every tick can be checked.' },
    ];
    await api.http.put('/api/ops/highlights/de').set(opsAuth).send({ highlights }).expect(200);
    expect((await home('de')).highlights).toMatchObject(highlights);
  });

  it('refuses bad sets with a 400 naming the field, and writes nothing', async () => {
    const before = await home('fr');
    const bad: [string, object][] = [
      ['banners.0.link', { banners: [{ title: 'x', link: 'https://elsewhere.example' }] }],
      ['banners.0.title', { banners: [{ title: '' }] }],
      ['banners.0.theme', { banners: [{ title: 'x', theme: 'neon' }] }],
      ['banners', { banners: Array.from({ length: 11 }, (_, i) => ({ title: `b${i}` })) }],
      ['banners', { banners: 'none' }],
    ];
    for (const [field, body] of bad) {
      const res = await api.http.put('/api/ops/banners/fr').set(opsAuth).send(body).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field });
    }
    await api.http
      .put('/api/ops/highlights/fr')
      .set(opsAuth)
      .send({ highlights: [{ icon: 'rocket', title: 'x', body: 'y' }] })
      .expect(400);
    await api.http.put('/api/ops/banners/xx').set(opsAuth).send({ banners: [] }).expect(400);
    await api.http.put('/api/ops/banners/fr').send({ banners: [] }).expect(401);
    expect(await home('fr')).toEqual(before);
  });
});
