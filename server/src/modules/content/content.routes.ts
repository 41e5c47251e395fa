import { Router } from 'express';
import {
  langQuery,
  messageListQuery,
  messageParams,
  newsListQuery,
  newsParams,
  pageParams,
} from '@shared/content';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireUser, sessionOf } from '@server/platform/http/auth';
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

  r.get('/pages/:slug', async (req, res) => {
    const { slug } = parseOrThrow(pageParams, req.params);
    res.json(await content.page(slug, parseOrThrow(langQuery, req.query).lang));
  });
  r.get('/news', async (req, res) => {
    const { lang, ...page } = parseOrThrow(newsListQuery, req.query);
    res.json(await content.news(lang, page));
  });
  r.get('/news/:id', async (req, res) => {
    const { id } = parseOrThrow(newsParams, req.params);
    res.json(await content.newsItem(id, parseOrThrow(langQuery, req.query).lang));
  });
  r.get('/content/home', async (req, res) => {
    res.json(await content.home(parseOrThrow(langQuery, req.query).lang));
  });

  r.get('/messages', user, async (req, res) => {
    const page = parseOrThrow(messageListQuery, req.query);
    res.json(await messages.list(sessionOf(res.locals).userId, page));
  });
  r.get('/messages/unread-count', user, async (_req, res) => {
    res.json({ count: await messages.unreadCount(sessionOf(res.locals).userId) });
  });
  r.post('/messages/read-all', user, async (_req, res) => {
    await messages.markAllRead(sessionOf(res.locals).userId);
    res.status(204).end();
  });
  r.post('/messages/:id/read', user, async (req, res) => {
    const { id } = parseOrThrow(messageParams, req.params);
    await messages.markRead(sessionOf(res.locals).userId, id);
    res.status(204).end();
  });
  return r;
}
