import { Router } from 'express';
import {
  contentLangParams,
  opsBannersBody,
  opsHighlightsBody,
  opsMessageBody,
  opsNewsBody,
  opsPageBody,
  pageParams,
} from '@shared/content';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireOperator } from '@server/platform/http/auth';
import type { OperatorTokenHashes } from '@server/platform/http/auth';
import type { ContentService } from './content.service';
import type { MessagesService } from './messages.service';

/**
 * /api/ops/messages, /api/ops/news, /api/ops/pages/:slug, /api/ops/banners/:lang,
 * /api/ops/highlights/:lang, /api/ops/content/seed: what operators publish.
 */
export function contentOpsRoutes(deps: {
  content: ContentService;
  messages: MessagesService;
  operatorTokenHash: OperatorTokenHashes | null;
}): Router {
  const { content, messages } = deps;
  const r = Router();
  r.use('/ops', requireOperator(deps.operatorTokenHash));

  r.post('/ops/messages', async (req, res) => {
    res.status(201).json(await messages.send(parseOrThrow(opsMessageBody, req.body)));
  });
  r.post('/ops/news', async (req, res) => {
    res.status(201).json(await content.publishNews(parseOrThrow(opsNewsBody, req.body)));
  });
  r.put('/ops/pages/:slug', async (req, res) => {
    const { slug } = parseOrThrow(pageParams, req.params);
    res.json(await content.setPage(slug, parseOrThrow(opsPageBody, req.body)));
  });
  // Home's carousel and highlights: a language's whole set at once, in display order.
  r.put('/ops/banners/:lang', async (req, res) => {
    const { lang } = parseOrThrow(contentLangParams, req.params);
    res.json(await content.setBanners(lang, parseOrThrow(opsBannersBody, req.body)));
  });
  r.put('/ops/highlights/:lang', async (req, res) => {
    const { lang } = parseOrThrow(contentLangParams, req.params);
    res.json(await content.setHighlights(lang, parseOrThrow(opsHighlightsBody, req.body)));
  });
  // A scaled deployment is never seeded by a first start: this writes the same default content
  // (Home's banners and highlights above all, which have no other way in) once per database.
  r.post('/ops/content/seed', async (_req, res) => {
    res.json({ seeded: await content.seedDefaults() });
  });
  return r;
}
