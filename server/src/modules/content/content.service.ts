import {
  isPageSlug,
  type ContentPage,
  type HomeContent,
  type NewsItem,
  type NewsSummary,
  type OpsBannersBody,
  type OpsHighlightsBody,
  type OpsNewsBody,
  type OpsPageBody,
} from '@shared/content/model';
import type { Page } from '@shared/wallet/model';
import type { Db } from '@infra/db';
import { notFound } from '@server/platform/http/errors';
import { toPage, type PageRequest } from '@server/platform/paging';
import * as repo from './content.repo';
import { seedContentOnce } from './seed';
import {
  presentBanner,
  presentHighlight,
  presentNews,
  presentNewsSummary,
  presentPage,
} from './content.presenters';

/** News shown on Home before "more". */
const HOME_NEWS = 5;

/**
 * Pages, news, banners and highlights, per language (DECISIONS.md, Content and Languages). A
 * language with no text of its own reads zh-CN's; an item with neither reads any it has.
 */
export function createContentService(db: Db) {
  const service = {
    /**
     * The default content (seed/<lang>.json: banners, highlights, three news items, the text
     * pages) an embedded first start writes, for a scaled deployment; once per database.
     * Whether this call wrote it.
     */
    seedDefaults: (): Promise<boolean> => seedContentOnce(db),
    /** 404 for a slug that is not one of the text pages, and for a page with no text yet. */
    async page(slug: string, lang: string): Promise<ContentPage> {
      const row = isPageSlug(slug) ? await repo.findPage(db, slug, lang) : null;
      if (!row) throw notFound('No such page');
      return presentPage(row);
    },

    async news(lang: string, page: PageRequest): Promise<Page<NewsSummary>> {
      return toPage(await repo.listNews(db, lang, page), page.limit, presentNewsSummary);
    },

    async newsItem(id: number, lang: string): Promise<NewsItem> {
      const row = await repo.findNews(db, id, lang);
      if (!row) throw notFound('No such news item');
      return presentNews(row);
    },

    /** Replaces a language's banners; answers Home as that language's readers now see it. */
    async setBanners(lang: string, body: OpsBannersBody): Promise<HomeContent> {
      await db.transaction(async (tx) => {
        await repo.replaceSet(tx, 'banners', lang);
        await repo.insertBanners(
          tx,
          body.banners.map((b, position) => ({ lang, position, ...b })),
        );
      });
      return service.home(lang);
    },

    /** Replaces a language's highlights; answers Home as that language's readers now see it. */
    async setHighlights(lang: string, body: OpsHighlightsBody): Promise<HomeContent> {
      await db.transaction(async (tx) => {
        await repo.replaceSet(tx, 'highlights', lang);
        await repo.insertHighlights(
          tx,
          body.highlights.map((h, position) => ({ lang, position, ...h })),
        );
      });
      return service.home(lang);
    },

    async home(lang: string): Promise<HomeContent> {
      const [banners, highlights, news] = await Promise.all([
        repo.listBanners(db, lang),
        repo.listHighlights(db, lang),
        repo.listNews(db, lang, { limit: HOME_NEWS }),
      ]);
      const page = toPage(news, HOME_NEWS, presentNewsSummary);
      return {
        banners: banners.map(presentBanner),
        highlights: highlights.map(presentHighlight),
        news: page.items,
        newsCursor: page.nextCursor,
      };
    },

    /**
     * Publishes a news item in one language, or (with `newsId`) adds or replaces one language's
     * text of an existing item. Answers the item as readers of that language see it.
     */
    async publishNews(body: OpsNewsBody): Promise<NewsItem> {
      const id = await db.transaction(async (tx) => {
        if (body.newsId !== undefined && !(await repo.newsExists(tx, body.newsId)))
          throw notFound('No such news item');
        const newsId = body.newsId ?? (await repo.insertNews(tx));
        await repo.upsertNewsText(tx, {
          newsId,
          lang: body.lang,
          title: body.title,
          body: body.body,
        });
        return newsId;
      });
      return presentNews((await repo.findNews(db, id, body.lang))!);
    },

    /** Sets one language's text of a page. */
    async setPage(slug: string, body: OpsPageBody): Promise<ContentPage> {
      if (!isPageSlug(slug)) throw notFound('No such page');
      return presentPage(await repo.upsertPage(db, { slug, ...body }));
    },
  };
  return service;
}

export type ContentService = ReturnType<typeof createContentService>;
