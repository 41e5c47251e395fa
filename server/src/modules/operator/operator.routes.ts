import { Router } from 'express';
import { z } from 'zod';
import { notFound, validationFailed } from '@server/platform/http/errors';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireOperator, type OperatorTokenHashes } from '@server/platform/http/auth';
import type { AuthService } from '../auth/auth.service';
import type { MarketService } from '../market/market.service';

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
    if (!(await deps.auth.setCreditScore(id, score))) throw notFound('No such user');
    res.status(204).end();
  });
  // Maintenance (MarketService.setMaintenance): orders on the product are refused with
  // PRODUCT_MAINTENANCE from the next market state (within a second).
  r.post('/ops/products/:id/maintenance', async (req, res) => {
    const { id } = deps.market.spec(parseOrThrow(productIdParam, req.params).id);
    const { on, opensAt } = parseOrThrow(maintenanceBody, req.body);
    if (opensAt !== undefined && !on)
      throw validationFailed('opensAt', 'opensAt: only with on: true');
    if (opensAt !== undefined && opensAt <= now())
      throw validationFailed('opensAt', 'opensAt: must be in the future');
    await deps.market.setMaintenance(id, on ? { on, opensAt: opensAt ?? null } : { on });
    res.json({ id, on, ...(opensAt ? { opensAt } : {}) });
  });
  return r;
}
