import { Router } from 'express';
import * as endpoints from '@shared/content/ops.endpoints';
import type { OperatorGate } from '@server/platform/http/operator-gate';
import { serve } from '@server/platform/http/serve';
import type { ContentService } from './content.service';
import type { MessagesService } from './messages.service';

/**
 * /api/ops/messages, /api/ops/news, /api/ops/pages/:slug, /api/ops/banners/:lang,
 * /api/ops/highlights/:lang, /api/ops/content/seed (shared/src/content/ops.endpoints.ts): what
 * operators publish.
 */
export function contentOpsRoutes(deps: {
  content: ContentService;
  messages: MessagesService;
  gate: OperatorGate;
}): Router {
  const { content, messages } = deps;
  const r = Router();
  const operator = deps.gate('admin');

  serve(r, endpoints.sendMessage, operator, ({ body }) => messages.send(body));
  serve(r, endpoints.publishNews, operator, ({ body }) => content.publishNews(body));
  serve(r, endpoints.setPage, operator, ({ params, body }) => content.setPage(params.slug, body));
  // Home's carousel and highlights: a language's whole set at once, in display order.
  serve(r, endpoints.setBanners, operator, ({ params, body }) =>
    content.setBanners(params.lang, body),
  );
  serve(r, endpoints.setHighlights, operator, ({ params, body }) =>
    content.setHighlights(params.lang, body),
  );
  // A scaled deployment is never seeded by a first start: this writes the same default content
  // once per database.
  serve(r, endpoints.seedContent, operator, async () => ({
    seeded: await content.seedDefaults(),
  }));
  return r;
}
