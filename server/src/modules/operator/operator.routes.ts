import { Router } from 'express';
import { z } from 'zod';
import { freeText } from '@shared/text';
import { notFound, validationFailed } from '@server/platform/http/errors';
import { parseOrThrow } from '@server/platform/http/validate';
import type { OperatorArea, OperatorGate } from '@server/platform/http/operator-gate';
import { declare, type RouteSpec } from '@server/platform/http/route';
import { noteAudit } from '@server/platform/http/operator-gate';
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
const creditScoreBody = z.object({
  score: z.number().int().min(0).max(1000),
  reason: freeText().trim().min(1).max(500).optional().describe('kept in the audit log'),
});
const freezeBody = z.object({
  reason: freeText().trim().min(1, 'reason is required').max(500).describe('kept in the audit log'),
});
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

/**
 * /api/ops/*: invitation codes, credit scores and maintenance. Each route names the console
 * area whose roles may call it (platform/http/operator-gate.ts).
 */
export function operatorRoutes(deps: {
  market: MarketService;
  auth: AuthService;
  gate: OperatorGate;
  now?: () => number;
}): Router {
  const now = deps.now ?? Date.now;
  const r = Router();
  const ops = (area: OperatorArea, spec: Omit<RouteSpec, 'auth' | 'tag'>): RouteSpec => ({
    ...spec,
    auth: deps.gate(area),
    tag: 'Operators',
  });
  declare(
    r,
    ops('admin', {
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
    ops('support', {
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
      const before = await deps.auth.creditScoreOf(id);
      if (before === null || !(await deps.auth.setCreditScore(id, score)))
        throw notFound('No such user');
      noteAudit(res, { target: `user=${id}`, before: { score: before }, after: { score } });
      res.status(204).end();
    },
  );
  // A frozen user may read their account but not log in, trade, withdraw or move money
  // (403 ACCOUNT_FROZEN); unfreezing lifts it. Both need a reason, kept in the audit log.
  for (const [action, frozen] of [
    ['freeze', true],
    ['unfreeze', false],
  ] as const)
    declare(
      r,
      ops('support', {
        method: 'post',
        path: `/ops/users/:id/${action}`,
        operationId: `${action}User`,
        summary: frozen
          ? 'Freeze a user: no login, orders, withdrawals or transfers'
          : 'Lift a freeze',
        params: userIdParam,
        body: freezeBody,
        responses: { 200: z.object({ id: z.string(), frozen: z.boolean() }) },
        errors: { 404: ['NOT_FOUND'] },
      }),
      async (req, res) => {
        const { id } = parseOrThrow(userIdParam, req.params);
        const { reason } = parseOrThrow(freezeBody, req.body);
        const change = await deps.auth.setFrozen(id, frozen ? reason : null);
        noteAudit(res, { target: `user=${id}`, before: { frozen: change.before } });
        res.json({ id: String(id), frozen: change.after });
      },
    );
  // Maintenance (MarketService.setMaintenance): orders on the product are refused with
  // PRODUCT_MAINTENANCE from the next market state (within a second).
  declare(
    r,
    ops('admin', {
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
