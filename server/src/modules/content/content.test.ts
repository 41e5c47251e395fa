import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageSlugs } from '@shared/content/model';
import { languages } from '@shared/languages';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, type TestApi } from '@tests/support/api';
import { opsAuth } from '@tests/support/wallet';
import { readSeedFile, seedContentOnce, seedLayout } from './seed';
import { summarise } from './content.presenters';

/** One field of each item of an untyped JSON list. */
const fieldOf = (items: unknown, field: string) =>
  (items as Record<string, unknown>[]).map((item) => item[field]);

describe.each(dbDrivers())('content on %s', (kind) => {
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

  const setPage = (slug: string, lang: string, title: string, body = `${title} body`) =>
    api.http.put(`/api/ops/pages/${slug}`).set(opsAuth).send({ lang, title, body });
  const publish = (fields: Record<string, unknown>) =>
    api.http.post('/api/ops/news').set(opsAuth).send(fields);

  describe('text pages', () => {
    it('answers 404 for every slug before any text exists, and for unknown slugs', async () => {
      for (const slug of pageSlugs) {
        const res = await api.http.get(`/api/pages/${slug}?lang=en`).expect(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
      await api.http.get('/api/pages/terms').expect(404);
      await api.http.get('/api/pages/..%2Fabout').expect(404);
    });

    it('serves the asked language, falls back to zh-CN, and to any language when zh-CN is missing', async () => {
      await setPage('about', 'zh-CN', '关于我们').expect(200);
      await setPage('about', 'en', 'About us').expect(200);
      await setPage('rules', 'ja', '時間指定注文のルール').expect(200);

      const en = await api.http.get('/api/pages/about?lang=en').expect(200);
      expect(en.body).toEqual({
        slug: 'about',
        lang: 'en',
        title: 'About us',
        body: 'About us body',
        updatedAt: expect.any(Number),
      });
      for (const lang of ['de', 'ko', 'zh-TW']) {
        const res = await api.http.get(`/api/pages/about?lang=${lang}`).expect(200);
        expect(res.body).toMatchObject({ lang: 'zh-CN', title: '关于我们' });
      }
      // No lang: zh-CN, the default language.
      expect((await api.http.get('/api/pages/about').expect(200)).body.title).toBe('关于我们');
      // Only Japanese exists: a German reader still gets a page, marked as Japanese.
      const de = await api.http.get('/api/pages/rules?lang=de').expect(200);
      expect(de.body).toMatchObject({ slug: 'rules', lang: 'ja', title: '時間指定注文のルール' });
    });

    it('lets an operator replace a language text', async () => {
      await setPage('privacy', 'fr', 'Ancienne').expect(200);
      const res = await setPage('privacy', 'fr', 'Politique de confidentialité', 'Nouveau texte');
      expect(res.status).toBe(200);
      const page = await api.http.get('/api/pages/privacy?lang=fr').expect(200);
      expect(page.body).toMatchObject({
        title: 'Politique de confidentialité',
        body: 'Nouveau texte',
      });
    });

    it.each([
      ['/api/pages/about?lang=xx', 'lang'],
      ['/api/pages/about?lang=EN', 'lang'],
      ['/api/news?lang=klingon', 'lang'],
      ['/api/news?limit=0', 'limit'],
      ['/api/news?limit=101', 'limit'],
      ['/api/news?cursor=abc', 'cursor'],
      ['/api/news/abc', 'id'],
      ['/api/news/0', 'id'],
      ['/api/content/home?lang=english', 'lang'],
    ])('GET %s → 400 naming %s', async (url, field) => {
      const res = await api.http.get(url).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field });
    });
  });

  describe('news', () => {
    let ids: string[] = [];

    it('publishes per language, adds translations, and lists newest first with fallback', async () => {
      const first = await publish({ lang: 'zh-CN', title: '第一条', body: '正文一' }).expect(201);
      await publish({ newsId: first.body.id, lang: 'en', title: 'First', body: 'Body one' }).expect(
        201,
      );
      const second = await publish({ lang: 'en', title: 'English only', body: 'Only en' });
      expect(second.status).toBe(201);
      const third = await publish({ lang: 'zh-CN', title: '第三条', body: '正文三' }).expect(201);
      expect(third.body).toMatchObject({
        id: expect.any(String),
        lang: 'zh-CN',
        title: '第三条',
        summary: '正文三',
        body: '正文三',
        publishedAt: expect.any(Number),
      });
      ids = [third.body.id, second.body.id, first.body.id];

      const en = await api.http.get('/api/news?lang=en').expect(200);
      expect(fieldOf(en.body.items, 'title')).toEqual(['第三条', 'English only', 'First']);
      expect(fieldOf(en.body.items, 'lang')).toEqual(['zh-CN', 'en', 'en']);
      expect(en.body.nextCursor).toBeNull();
      const ja = await api.http.get('/api/news?lang=ja').expect(200);
      expect(fieldOf(ja.body.items, 'title')).toEqual(['第三条', 'English only', '第一条']);
      expect(ja.body.items[0]).not.toHaveProperty('body');
    });

    it('pages with limit and cursor until nextCursor is null', async () => {
      const one = await api.http.get('/api/news?lang=zh-CN&limit=2').expect(200);
      expect(fieldOf(one.body.items, 'id')).toEqual(ids.slice(0, 2));
      expect(one.body.nextCursor).toBe(ids[1]);
      const two = await api.http
        .get(`/api/news?lang=zh-CN&limit=2&cursor=${one.body.nextCursor}`)
        .expect(200);
      expect(two.body).toEqual({
        items: [expect.objectContaining({ id: ids[2] })],
        nextCursor: null,
      });
    });

    it('shows one item in the asked language, else zh-CN; 404 for an unknown id', async () => {
      const first = ids[2]!;
      expect((await api.http.get(`/api/news/${first}?lang=en`).expect(200)).body).toMatchObject({
        id: first,
        lang: 'en',
        title: 'First',
        body: 'Body one',
      });
      expect((await api.http.get(`/api/news/${first}?lang=de`).expect(200)).body).toMatchObject({
        lang: 'zh-CN',
        title: '第一条',
      });
      await api.http.get('/api/news/999999?lang=en').expect(404);
      await publish({ newsId: '999999', lang: 'en', title: 'x', body: 'y' }).expect(404);
    });

    it.each([
      [{ title: 'x', body: 'y' }, 'lang'],
      [{ lang: 'xx', title: 'x', body: 'y' }, 'lang'],
      [{ lang: 'en', title: ' ', body: 'y' }, 'title'],
      [{ lang: 'en', title: 'x'.repeat(121), body: 'y' }, 'title'],
      [{ lang: 'en', title: 'x' }, 'body'],
      [{ lang: 'en', title: 'x', body: 'y', newsId: 'first' }, 'newsId'],
    ])('refuses news %j naming %s', async (fields, field) => {
      const res = await publish(fields).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field });
    });

    it('keeps operator endpoints closed without the operator token', async () => {
      await api.http.post('/api/ops/news').send({ lang: 'en', title: 'x', body: 'y' }).expect(401);
      await api.http
        .put('/api/ops/pages/about')
        .set({ Authorization: 'Bearer not-the-token' })
        .send({ lang: 'en', title: 'x', body: 'y' })
        .expect(401);
      await api.http
        .put('/api/ops/pages/terms')
        .set(opsAuth)
        .send({ lang: 'en', title: 'x', body: 'y' })
        .expect(404);
    });
  });

  describe('the seed', () => {
    it('writes everything once, in every language, and Home shows it', async () => {
      expect(await seedContentOnce(t.db)).toBe(true);
      expect(await seedContentOnce(t.db)).toBe(false);
      for (const lang of languages) {
        const file = readSeedFile(lang);
        for (const slug of pageSlugs) {
          const res = await api.http.get(`/api/pages/${slug}?lang=${lang}`).expect(200);
          expect(res.body).toMatchObject({ lang, title: file.pages[slug]!.title });
        }
        const home = await api.http.get(`/api/content/home?lang=${lang}`).expect(200);
        expect(home.body.banners).toHaveLength(seedLayout.banners.length);
        expect(home.body.banners[0]).toMatchObject({
          title: file.banners[0]!.title,
          link: '/pages/product/product',
          theme: 'blue',
        });
        expect(fieldOf(home.body.highlights, 'icon')).toEqual(
          seedLayout.highlights.map((h) => h.icon),
        );
        expect(home.body.highlights[0].title).toBe(file.highlights[0]!.title);
        // The seeded items were written last: they lead, newest first.
        const seeded = (home.body.news as unknown[]).slice(0, 3);
        expect(fieldOf(seeded, 'lang')).toEqual([lang, lang, lang]);
        expect(fieldOf(seeded, 'title')).toEqual(file.news.map((n) => n.title).reverse());
      }
    });

    it('has every language file complete and translated (not copied from English)', () => {
      const en = readSeedFile('en');
      for (const lang of languages.filter((l) => l !== 'en')) {
        const file = readSeedFile(lang);
        for (const slug of pageSlugs) expect(file.pages[slug]!.body).not.toBe(en.pages[slug]!.body);
        file.news.forEach((n, i) => expect(n.title).not.toBe(en.news[i]!.title));
        file.highlights.forEach((h, i) => expect(h.body).not.toBe(en.highlights[i]!.body));
      }
    });
  });

  describe('Home without content', () => {
    it('falls back to zh-CN banners when a language has none', async () => {
      await t.db.query(`DELETE FROM banners WHERE lang = 'ko'`);
      const ko = await api.http.get('/api/content/home?lang=ko').expect(200);
      const zh = await api.http.get('/api/content/home?lang=zh-CN').expect(200);
      expect(ko.body.banners).toEqual(zh.body.banners);
      expect(ko.body.highlights).not.toEqual(zh.body.highlights);
    });
  });
});

describe('summaries', () => {
  it('drops markers, joins lines and cuts long text at a word', () => {
    expect(summarise('## Title\n- one\n- two\n\nText')).toBe('Title one two Text');
    const long = summarise('word '.repeat(60));
    expect(long.length).toBeLessThanOrEqual(121);
    expect(long.endsWith('word…')).toBe(true);
    expect(summarise('字'.repeat(200))).toBe(`${'字'.repeat(120)}…`);
    expect(summarise('第一段。\n\n第二段')).toBe('第一段。第二段');
  });
});
