import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { setMaintenance } from '@sim/tape.repo';
import {
  forbidden,
  notFound,
  unauthenticated,
  validationFailed,
} from '@server/platform/http/errors';
import { parseOrThrow } from '@server/platform/http/validate';
import { bearerToken } from '../auth/auth.middleware';
import { updateCreditScore } from '../auth/auth.repo';
import type { AuthService } from '../auth/auth.service';
import type { Db } from '@server/platform/db';
import type { Bus } from '@server/platform/bus';
import type { MarketService } from '../market/market.service';
import { operatorTokenMatches, type OperatorTokenHashes } from './operator-token';

/** 401 without a token, 403 with a wrong one or when no operator token is configured. */
export function requireOperator(tokenHash: OperatorTokenHashes | null): RequestHandler {
  return (req, res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) throw unauthenticated();
    if (!tokenHash || !operatorTokenMatches(token, tokenHash)) throw forbidden();
    // One line per operator action (what changes something): the path carries the ids; never
    // the token or the body (messages, reasons and pages are content, not log material).
    if (req.method !== 'GET' && req.method !== 'HEAD')
      res.once('finish', () => {
        req.log?.info(
          {
            event: 'operator.action',
            method: req.method,
            path: req.originalUrl.split('?', 1)[0],
            status: res.statusCode,
          },
          `operator action ${req.method} ${req.originalUrl.split('?', 1)[0]} ${res.statusCode}`,
        );
      });
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
const productIdParam = z.object({ id: z.string().min(1).max(32) });
const maintenanceBody = z.object({
  on: z.boolean(),
  /** The announced opening time (epoch ms); only with `on: true`, and in the future. */
  opensAt: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});

/** /api/ops/*: what operators do. Every route needs the operator token. */
export function operatorRoutes(deps: {
  db: Db;
  bus: Bus;
  market: MarketService;
  auth: AuthService;
  tokenHash: OperatorTokenHashes | null;
  now?: () => number;
}): Router {
  const now = deps.now ?? Date.now;
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
  // Maintenance is stored (a restarted simulator reads it back) and announced on the bus: the
  // simulator stops the product's ticks and tells every client with a `product` event; orders on
  // it are refused with PRODUCT_MAINTENANCE from the next market state (within a second).
  r.post('/ops/products/:id/maintenance', async (req, res) => {
    const { id } = deps.market.spec(parseOrThrow(productIdParam, req.params).id);
    const { on, opensAt } = parseOrThrow(maintenanceBody, req.body);
    if (opensAt !== undefined && !on)
      throw validationFailed('opensAt', 'opensAt: only with on: true');
    if (opensAt !== undefined && opensAt <= now())
      throw validationFailed('opensAt', 'opensAt: must be in the future');
    await setMaintenance(deps.db, id, on ? { on, opensAt: opensAt ?? null } : { on });
    await deps.bus.publish({ type: 'maintenance', id, on, ...(opensAt ? { opensAt } : {}) });
    res.json({ id, on, ...(opensAt ? { opensAt } : {}) });
  });
  return r;
}
