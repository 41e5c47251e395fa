import { Router } from 'express';
import { opsMessageBody, opsNewsBody, opsPageBody, pageParams } from '@shared/content';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireOperator } from '../operator/operator.routes';
import type { ContentService } from './content.service';
import type { MessagesService } from './messages.service';

/** /api/ops/messages, /api/ops/news, /api/ops/pages/:slug: what operators publish. */
export function contentOpsRoutes(deps: {
  content: ContentService;
  messages: MessagesService;
  operatorTokenHash: string | null;
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
  return r;
}
