import type { Queryable } from '@infra/db';
import type { PageRequest } from '@server/platform/paging';

/**
 * SQL of pages, news, banners and highlights. Every read takes the language asked for and falls
 * back to zh-CN, then to any language there is, in one statement.
 */

/** `ORDER BY` that puts the asked language first, zh-CN second, the rest in name order. */
const langPreference = (column: string, param: string) =>
  `(${column} = ${param}) DESC, (${column} = 'zh-CN') DESC, ${column}`;

export interface PageRow {
  slug: string;
  lang: string;
  title: string;
  body: string;
  updated_at: Date;
}

export async function findPage(db: Queryable, slug: string, lang: string): Promise<PageRow | null> {
  const { rows } = await db.query<PageRow>(
    `SELECT slug, lang, title, body, updated_at FROM pages WHERE slug = $1
     ORDER BY ${langPreference('lang', '$2')} LIMIT 1`,
    [slug, lang],
  );
  return rows[0] ?? null;
}

export async function upsertPage(
  db: Queryable,
  p: { slug: string; lang: string; title: string; body: string },
): Promise<PageRow> {
  const { rows } = await db.query<PageRow>(
    `INSERT INTO pages (slug, lang, title, body) VALUES ($1, $2, $3, $4)
     ON CONFLICT (slug, lang) DO UPDATE SET title = EXCLUDED.title, body = EXCLUDED.body, updated_at = now()
     RETURNING slug, lang, title, body, updated_at`,
    [p.slug, p.lang, p.title, p.body],
  );
  return rows[0]!;
}

export interface NewsRow {
  id: number;
  published_at: Date;
  lang: string;
  title: string;
  body: string;
}

const newsSelect = (where: string) => `
  SELECT n.id, n.published_at, t.lang, t.title, t.body FROM news n
  CROSS JOIN LATERAL (
    SELECT lang, title, body FROM news_texts WHERE news_id = n.id
    ORDER BY ${langPreference('lang', '$1')} LIMIT 1
  ) t
  WHERE ${where}`;

/** Published news, newest first (keyset by id), each in the best language it has. */
export async function listNews(db: Queryable, lang: string, page: PageRequest): Promise<NewsRow[]> {
  const { rows } = await db.query<NewsRow>(
    `${newsSelect('n.published_at <= now() AND ($2::bigint IS NULL OR n.id < $2)')}
     ORDER BY n.id DESC LIMIT $3`,
    [lang, page.cursor ?? null, page.limit + 1],
  );
  return rows;
}

export async function findNews(db: Queryable, id: number, lang: string): Promise<NewsRow | null> {
  const { rows } = await db.query<NewsRow>(newsSelect('n.id = $2 AND n.published_at <= now()'), [
    lang,
    id,
  ]);
  return rows[0] ?? null;
}

export async function insertNews(db: Queryable, publishedAt?: Date): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO news (published_at) VALUES (coalesce($1::timestamptz, now())) RETURNING id',
    [publishedAt?.toISOString() ?? null],
  );
  return rows[0]!.id;
}

export async function newsExists(db: Queryable, id: number): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM news WHERE id = $1', [id]);
  return rowCount > 0;
}

export async function upsertNewsText(
  db: Queryable,
  t: { newsId: number; lang: string; title: string; body: string },
): Promise<void> {
  await db.query(
    `INSERT INTO news_texts (news_id, lang, title, body) VALUES ($1, $2, $3, $4)
     ON CONFLICT (news_id, lang) DO UPDATE SET title = EXCLUDED.title, body = EXCLUDED.body`,
    [t.newsId, t.lang, t.title, t.body],
  );
}

export interface BannerRow {
  id: number;
  title: string;
  subtitle: string;
  link: string | null;
  theme: string;
}

export interface HighlightRow {
  id: number;
  icon: string;
  title: string;
  body: string;
}

/** The rows of `table` for one language: the asked one if it has any, else zh-CN's. */
const perLanguageSet = (table: string, columns: string) => `
  SELECT ${columns} FROM ${table}
  WHERE lang = CASE WHEN EXISTS (SELECT 1 FROM ${table} WHERE lang = $1) THEN $1 ELSE 'zh-CN' END
  ORDER BY position, id`;

export async function listBanners(db: Queryable, lang: string): Promise<BannerRow[]> {
  const { rows } = await db.query<BannerRow>(
    perLanguageSet('banners', 'id, title, subtitle, link, theme'),
    [lang],
  );
  return rows;
}

export async function listHighlights(db: Queryable, lang: string): Promise<HighlightRow[]> {
  const { rows } = await db.query<HighlightRow>(
    perLanguageSet('highlights', 'id, icon, title, body'),
    [lang],
  );
  return rows;
}

/**
 * Seed writes: one statement per table, whatever the number of rows (arrays unnested in SQL).
 * Rows are given column by column.
 */
export async function insertPages(
  db: Queryable,
  rows: { slug: string; lang: string; title: string; body: string }[],
): Promise<void> {
  await db.query(
    `INSERT INTO pages (slug, lang, title, body)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
     ON CONFLICT (slug, lang) DO UPDATE SET title = EXCLUDED.title, body = EXCLUDED.body, updated_at = now()`,
    [
      rows.map((r) => r.slug),
      rows.map((r) => r.lang),
      rows.map((r) => r.title),
      rows.map((r) => r.body),
    ],
  );
}

export async function insertNewsTexts(
  db: Queryable,
  rows: { newsId: number; lang: string; title: string; body: string }[],
): Promise<void> {
  await db.query(
    `INSERT INTO news_texts (news_id, lang, title, body)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[])`,
    [
      rows.map((r) => r.newsId),
      rows.map((r) => r.lang),
      rows.map((r) => r.title),
      rows.map((r) => r.body),
    ],
  );
}

export async function insertBanners(
  db: Queryable,
  rows: {
    lang: string;
    position: number;
    title: string;
    subtitle: string;
    link: string | null;
    theme: string;
  }[],
): Promise<void> {
  await db.query(
    `INSERT INTO banners (lang, position, title, subtitle, link, theme)
     SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[])`,
    [
      rows.map((r) => r.lang),
      rows.map((r) => r.position),
      rows.map((r) => r.title),
      rows.map((r) => r.subtitle),
      rows.map((r) => r.link),
      rows.map((r) => r.theme),
    ],
  );
}

export async function insertHighlights(
  db: Queryable,
  rows: { lang: string; position: number; icon: string; title: string; body: string }[],
): Promise<void> {
  await db.query(
    `INSERT INTO highlights (lang, position, icon, title, body)
     SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[])`,
    [
      rows.map((r) => r.lang),
      rows.map((r) => r.position),
      rows.map((r) => r.icon),
      rows.map((r) => r.title),
      rows.map((r) => r.body),
    ],
  );
}

/** Empties one language's banners or highlights, before its new set is written (one transaction). */
export async function replaceSet(
  tx: Queryable,
  table: 'banners' | 'highlights',
  lang: string,
): Promise<void> {
  await tx.query(`DELETE FROM ${table} WHERE lang = $1`, [lang]);
}
