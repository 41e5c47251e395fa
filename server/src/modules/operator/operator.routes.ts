import { Router } from 'express';
import { z } from 'zod';
import { notFound, validationFailed } from '@server/platform/http/errors';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireOperator, type OperatorTokenHashes } from '@server/platform/http/auth';
import { declare, type RouteSpec } from '@server/platform/http/route';
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
  opensAt: z
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('epoch ms, in the future; only with on: true'),
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
  const operator = requireOperator(deps.tokenHash);
  const ops = (spec: Omit<RouteSpec, 'auth' | 'tag'>): RouteSpec => ({
    ...spec,
    auth: operator,
    tag: 'Operators',
  });
  declare(
    r,
    ops({
      method: 'post',
      path: '/ops/invites',
      operationId: 'createInvite',
      summary: 'Create an invite code (random unless given)',
      body: inviteBody,
      responses: { 201: z.object({ code: z.string() }) },
      errors: { 409: ['INVALID_STATE'] },
    }),
    async (req, res) => {
      const { code } = parseOrThrow(inviteBody, req.body);
      res.status(201).json({ code: await deps.auth.createInvite(code) });
    },
  );
  declare(
    r,
    ops({
      method: 'post',
      path: '/ops/users/:id/credit-score',
      operationId: 'setCreditScore',
      summary: "Set a user's credit score",
      params: userIdParam,
      body: creditScoreBody,
      responses: { 204: null },
      errors: { 404: ['NOT_FOUND'] },
    }),
    async (req, res) => {
      const { id } = parseOrThrow(userIdParam, req.params);
      const { score } = parseOrThrow(creditScoreBody, req.body);
      if (!(await deps.auth.setCreditScore(id, score))) throw notFound('No such user');
      res.status(204).end();
    },
  );
  // Maintenance (MarketService.setMaintenance): orders on the product are refused with
  // PRODUCT_MAINTENANCE from the next market state (within a second).
  declare(
    r,
    ops({
      method: 'post',
      path: '/ops/products/:id/maintenance',
      operationId: 'setMaintenance',
      summary: 'Start or end maintenance',
      params: productIdParam,
      body: maintenanceBody,
      responses: {
        200: z.object({ id: z.string(), on: z.boolean(), opensAt: z.int().optional() }),
      },
      errors: { 404: ['NOT_FOUND'] },
    }),
    async (req, res) => {
      const { id } = deps.market.spec(parseOrThrow(productIdParam, req.params).id);
      const { on, opensAt } = parseOrThrow(maintenanceBody, req.body);
      if (opensAt !== undefined && !on)
        throw validationFailed('opensAt', 'opensAt: only with on: true');
      if (opensAt !== undefined && opensAt <= now())
        throw validationFailed('opensAt', 'opensAt: must be in the future');
      await deps.market.setMaintenance(id, on ? { on, opensAt: opensAt ?? null } : { on });
      res.json({ id, on, ...(opensAt ? { opensAt } : {}) });
    },
  );
  return r;
}
