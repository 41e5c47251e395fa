import { Router } from 'express';
import { z } from 'zod';
import {
  langQuery,
  messageListQuery,
  messageParams,
  newsListQuery,
  newsParams,
  pageParams,
} from '@shared/content';
import {
  contentPageDto,
  homeContentDto,
  messageDto,
  newsItemDto,
  newsSummaryDto,
  pageOf,
} from '@shared/dto';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { declare, type RouteSpec } from '@server/platform/http/route';
import type { AuthService } from '../auth/auth.service';
import type { ContentService } from './content.service';
import type { MessagesService } from './messages.service';

/**
 * Public content (/api/pages, /api/news, /api/content/home) and the user's messages
 * (/api/messages). `lang` is one of the ten languages, zh-CN when left out.
 */
export function contentRoutes(deps: {
  content: ContentService;
  messages: MessagesService;
  auth: AuthService;
}): Router {
  const { content, messages } = deps;
  const r = Router();
  const user = requireUser(deps.auth);
  const notFound: RouteSpec['errors'] = { 404: ['NOT_FOUND'] };
  const tag = 'Content';

  declare(
    r,
    {
      method: 'get',
      path: '/pages/:slug',
      operationId: 'page',
      summary: 'A text page (about, privacy, privacy-2, rules, …)',
      tag: 'Accounts',
      params: pageParams,
      query: langQuery,
      responses: { 200: contentPageDto },
      errors: notFound,
    },
    async (req, res) => {
      const { slug } = parseOrThrow(pageParams, req.params);
      res.json(await content.page(slug, parseOrThrow(langQuery, req.query).lang));
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/news',
      operationId: 'news',
      summary: 'News, newest first',
      tag,
      query: newsListQuery,
      responses: { 200: pageOf(newsSummaryDto) },
    },
    async (req, res) => {
      const { lang, ...page } = parseOrThrow(newsListQuery, req.query);
      res.json(await content.news(lang, page));
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/news/:id',
      operationId: 'newsItem',
      summary: 'One news item',
      tag,
      params: newsParams,
      query: langQuery,
      responses: { 200: newsItemDto },
      errors: notFound,
    },
    async (req, res) => {
      const { id } = parseOrThrow(newsParams, req.params);
      res.json(await content.newsItem(id, parseOrThrow(langQuery, req.query).lang));
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/content/home',
      operationId: 'home',
      summary: 'What Home shows besides the products',
      tag,
      query: langQuery,
      responses: { 200: homeContentDto },
    },
    async (req, res) => {
      res.json(await content.home(parseOrThrow(langQuery, req.query).lang));
    },
  );

  declare(
    r,
    {
      method: 'get',
      path: '/messages',
      operationId: 'messages',
      summary: "The user's messages and the broadcasts",
      tag,
      auth: user,
      query: messageListQuery,
      responses: { 200: pageOf(messageDto) },
    },
    async (req, res) => {
      const page = parseOrThrow(messageListQuery, req.query);
      res.json(await messages.list(sessionOf(res.locals).userId, page));
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/messages/unread-count',
      operationId: 'unreadCount',
      summary: 'How many messages are unread',
      tag,
      auth: user,
      responses: { 200: z.object({ count: z.int() }) },
    },
    async (_req, res) => {
      res.json({ count: await messages.unreadCount(sessionOf(res.locals).userId) });
    },
  );
  declare(
    r,
    {
      method: 'post',
      path: '/messages/read-all',
      operationId: 'readAllMessages',
      summary: 'Mark every message read',
      tag,
      auth: user,
      responses: { 204: null },
    },
    async (_req, res) => {
      await messages.markAllRead(sessionOf(res.locals).userId);
      res.status(204).end();
    },
  );
  declare(
    r,
    {
      method: 'post',
      path: '/messages/:id/read',
      operationId: 'readMessage',
      summary: 'Mark one message read',
      tag,
      auth: user,
      params: messageParams,
      responses: { 204: null },
      errors: notFound,
    },
    async (req, res) => {
      const { id } = parseOrThrow(messageParams, req.params);
      await messages.markRead(sessionOf(res.locals).userId, id);
      res.status(204).end();
    },
  );
  return r;
}
