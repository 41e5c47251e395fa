import { Router } from 'express';
import * as endpoints from '@shared/content/endpoints';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { serve } from '@server/platform/http/serve';
import type { AuthService } from '../auth/auth.service';
import type { ContentService } from './content.service';
import type { MessagesService } from './messages.service';

/**
 * Public content (/api/pages, /api/news, /api/content/home) and the user's messages
 * (/api/messages), as shared/src/content/endpoints.ts declares them.
 */
export function contentRoutes(deps: {
  content: ContentService;
  messages: MessagesService;
  auth: AuthService;
}): Router {
  const { content, messages } = deps;
  const r = Router();
  const user = requireUser(deps.auth);
  const userId = (locals: Record<string, unknown>) => sessionOf(locals).userId;

  serve(r, endpoints.page, undefined, ({ params, query }) => content.page(params.slug, query.lang));
  serve(r, endpoints.news, undefined, ({ query: { lang, ...page } }) => content.news(lang, page));
  serve(r, endpoints.newsItem, undefined, ({ params, query }) =>
    content.newsItem(params.id, query.lang),
  );
  serve(r, endpoints.home, undefined, ({ query }) => content.home(query.lang));
  serve(r, endpoints.messages, user, ({ query }, { res }) =>
    messages.list(userId(res.locals), query),
  );
  serve(r, endpoints.unreadCount, user, async (_input, { res }) => ({
    count: await messages.unreadCount(userId(res.locals)),
  }));
  serve(r, endpoints.readAllMessages, user, (_input, { res }) =>
    messages.markAllRead(userId(res.locals)),
  );
  serve(r, endpoints.readMessage, user, ({ params }, { res }) =>
    messages.markRead(userId(res.locals), params.id),
  );
  return r;
}
