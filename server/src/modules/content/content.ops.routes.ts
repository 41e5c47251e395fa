import { Router } from 'express';
import { z } from 'zod';
import {
  contentLangParams,
  opsBannersBody,
  opsHighlightsBody,
  opsMessageBody,
  opsNewsBody,
  opsPageBody,
  pageParams,
} from '@shared/content';
import { contentPageDto, homeContentDto, newsItemDto, opsMessageDto } from '@shared/dto';
import { parseOrThrow } from '@server/platform/http/validate';
import type { OperatorGate } from '@server/platform/http/operator-gate';
import { declare, type RouteSpec } from '@server/platform/http/route';
import type { ContentService } from './content.service';
import type { MessagesService } from './messages.service';

/**
 * /api/ops/messages, /api/ops/news, /api/ops/pages/:slug, /api/ops/banners/:lang,
 * /api/ops/highlights/:lang, /api/ops/content/seed: what operators publish.
 */
export function contentOpsRoutes(deps: {
  content: ContentService;
  messages: MessagesService;
  gate: OperatorGate;
}): Router {
  const { content, messages } = deps;
  const r = Router();
  const operator = deps.gate('admin');
  const ops = (s: Omit<RouteSpec, 'auth' | 'tag'>): RouteSpec => ({
    ...s,
    auth: operator,
    tag: 'Operators',
  });
  const notFound: RouteSpec['errors'] = { 404: ['NOT_FOUND'] };

  declare(
    r,
    ops({
      method: 'post',
      path: '/ops/messages',
      operationId: 'sendMessage',
      summary: 'Send a message to one user, or to all',
      body: opsMessageBody,
      responses: { 201: opsMessageDto },
      errors: notFound,
    }),
    async (req, res) => {
      res.status(201).json(await messages.send(parseOrThrow(opsMessageBody, req.body)));
    },
  );
  declare(
    r,
    ops({
      method: 'post',
      path: '/ops/news',
      operationId: 'publishNews',
      summary: "Publish news, or one language's text of an item",
      body: opsNewsBody,
      responses: { 201: newsItemDto },
      errors: notFound,
    }),
    async (req, res) => {
      res.status(201).json(await content.publishNews(parseOrThrow(opsNewsBody, req.body)));
    },
  );
  declare(
    r,
    ops({
      method: 'put',
      path: '/ops/pages/:slug',
      operationId: 'setPage',
      summary: "Set one language's text of a page",
      params: pageParams,
      body: opsPageBody,
      responses: { 200: contentPageDto },
      errors: notFound,
    }),
    async (req, res) => {
      const { slug } = parseOrThrow(pageParams, req.params);
      res.json(await content.setPage(slug, parseOrThrow(opsPageBody, req.body)));
    },
  );
  // Home's carousel and highlights: a language's whole set at once, in display order.
  declare(
    r,
    ops({
      method: 'put',
      path: '/ops/banners/:lang',
      operationId: 'setBanners',
      summary: "Replace one language's Home banners",
      params: contentLangParams,
      body: opsBannersBody,
      responses: { 200: homeContentDto },
    }),
    async (req, res) => {
      const { lang } = parseOrThrow(contentLangParams, req.params);
      res.json(await content.setBanners(lang, parseOrThrow(opsBannersBody, req.body)));
    },
  );
  declare(
    r,
    ops({
      method: 'put',
      path: '/ops/highlights/:lang',
      operationId: 'setHighlights',
      summary: "Replace one language's Home highlights",
      params: contentLangParams,
      body: opsHighlightsBody,
      responses: { 200: homeContentDto },
    }),
    async (req, res) => {
      const { lang } = parseOrThrow(contentLangParams, req.params);
      res.json(await content.setHighlights(lang, parseOrThrow(opsHighlightsBody, req.body)));
    },
  );
  // A scaled deployment is never seeded by a first start: this writes the same default content
  // (Home's banners and highlights above all, which have no other way in) once per database.
  declare(
    r,
    ops({
      method: 'post',
      path: '/ops/content/seed',
      operationId: 'seedContent',
      summary:
        'Write the default banners, highlights, news and pages once (seeded: whether this call did)',
      responses: { 200: z.object({ seeded: z.boolean() }) },
    }),
    async (_req, res) => {
      res.json({ seeded: await content.seedDefaults() });
    },
  );
  return r;
}
