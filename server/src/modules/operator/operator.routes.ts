import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { forbidden, notFound, unauthenticated } from '@server/platform/http/errors';
import { parseOrThrow } from '@server/platform/http/validate';
import { bearerToken } from '../auth/auth.middleware';
import { updateCreditScore } from '../auth/auth.repo';
import type { AuthService } from '../auth/auth.service';
import type { Db } from '@server/platform/db';
import { operatorTokenMatches } from './operator-token';

/** 401 without a token, 403 with a wrong one or when no operator token is configured. */
export function requireOperator(tokenHash: string | null): RequestHandler {
  return (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) throw unauthenticated();
    if (!tokenHash || !operatorTokenMatches(token, tokenHash)) throw forbidden();
    next();
  };
}

const inviteBody = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{4,32}$/, 'code must be 4-32 letters or digits')
    .optional(),
});
const userIdParam = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const creditScoreBody = z.object({ score: z.number().int().min(0).max(1000) });

/** /api/ops/*: what operators do. Every route needs the operator token. */
export function operatorRoutes(deps: {
  db: Db;
  auth: AuthService;
  tokenHash: string | null;
}): Router {
  const r = Router();
  r.use('/ops', requireOperator(deps.tokenHash));
  r.post('/ops/invites', async (req, res) => {
    const { code } = parseOrThrow(inviteBody, req.body);
    res.status(201).json({ code: await deps.auth.createInvite(code) });
  });
  r.post('/ops/users/:id/credit-score', async (req, res) => {
    const { id } = parseOrThrow(userIdParam, req.params);
    const { score } = parseOrThrow(creditScoreBody, req.body);
    if (!(await updateCreditScore(deps.db, id, score))) throw notFound('No such user');
    res.status(204).end();
  });
  return r;
}
