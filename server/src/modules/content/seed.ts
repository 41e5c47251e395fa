import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { pageSlugs, type BannerTheme, type HighlightIcon } from '@shared/content/model';
import { languages, type Language } from '@shared/languages';
import type { Db } from '@infra/db';
import * as repo from './content.repo';

/**
 * The content an embedded first start writes, so a newcomer sees a full app: Home's banners and
 * highlights, three news items and the five text pages, in all ten languages. The words live in
 * `seed/<lang>.json` (one file per language, for translators); what does not depend on the
 * language (links, themes, icons, ages) lives here, position by position.
 */
export const seedLayout: {
  banners: { link: string | null; theme: BannerTheme }[];
  highlights: { icon: HighlightIcon }[];
  /** How long ago each news item was published, oldest first. */
  newsAgeHours: number[];
} = {
  banners: [
    { link: '/pages/product/product', theme: 'blue' },
    { link: '/pages/money/money', theme: 'green' },
    { link: '/pages/recharge/recharge', theme: 'amber' },
  ],
  highlights: [{ icon: 'tape' }, { icon: 'shield' }, { icon: 'clock' }, { icon: 'support' }],
  newsAgeHours: [72, 26, 3],
};

const text = z.string().trim().min(1);
const titled = z.object({ title: text, body: text }).strict();

export const seedFileSchema = z
  .object({
    pages: z.object(Object.fromEntries(pageSlugs.map((s) => [s, titled]))).strict(),
    news: z.array(titled).length(seedLayout.newsAgeHours.length),
    banners: z
      .array(z.object({ title: text, subtitle: text }).strict())
      .length(seedLayout.banners.length),
    highlights: z.array(titled).length(seedLayout.highlights.length),
  })
  .strict();
export type SeedFile = z.infer<typeof seedFileSchema>;

export const seedDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'seed');

/** The seed texts of one language, checked against the schema (a broken file fails loudly). */
export function readSeedFile(lang: Language, dir = seedDir): SeedFile {
  const raw: unknown = JSON.parse(fs.readFileSync(path.join(dir, `${lang}.json`), 'utf8'));
  const parsed = seedFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `seed/${lang}.json: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

const SEED_KEY = 'seeded_content';

/**
 * Writes the seed content once per database: the marker row and the content commit together,
 * so concurrent first starts write it once, and a start that fails half-way writes none of it.
 * Returns whether this call wrote it.
 */
export async function seedContentOnce(db: Db, now = Date.now()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `INSERT INTO app_meta (key, value) VALUES ($1, 'yes') ON CONFLICT (key) DO NOTHING RETURNING key`,
      [SEED_KEY],
    );
    if (rowCount === 0) return false;
    // Read only now: later starts skip the files altogether; a broken file undoes the marker.
    const files = languages.map((lang) => [lang, readSeedFile(lang)] as const);
    const newsIds: number[] = [];
    for (const hours of seedLayout.newsAgeHours)
      newsIds.push(await repo.insertNews(tx, new Date(now - hours * 3_600_000)));
    await repo.insertPages(
      tx,
      files.flatMap(([lang, file]) =>
        pageSlugs.map((slug) => ({ slug, lang, ...file.pages[slug]! })),
      ),
    );
    await repo.insertNewsTexts(
      tx,
      files.flatMap(([lang, file]) =>
        file.news.map((n, i) => ({ newsId: newsIds[i]!, lang, ...n })),
      ),
    );
    await repo.insertBanners(
      tx,
      files.flatMap(([lang, file]) =>
        file.banners.map((b, i) => ({ lang, position: i, ...b, ...seedLayout.banners[i]! })),
      ),
    );
    await repo.insertHighlights(
      tx,
      files.flatMap(([lang, file]) =>
        file.highlights.map((h, i) => ({ lang, position: i, ...h, ...seedLayout.highlights[i]! })),
      ),
    );
    return true;
  });
}
