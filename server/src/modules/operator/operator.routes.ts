import { Router } from 'express';
import * as endpoints from '@shared/accounts/ops.endpoints';
import { notFound, validationFailed } from '@server/platform/http/errors';
import { serve } from '@server/platform/http/serve';
import { noteAudit, type OperatorGate } from '@server/platform/http/operator-gate';
import type { AuthService } from '../auth/auth.service';
import type { MarketService } from '../market/market.service';

/**
 * /api/ops/*: invitation codes, credit scores, freezes and maintenance
 * (shared/src/accounts/ops.endpoints.ts). Each is mounted behind the console area whose roles may
 * call it (platform/http/operator-gate.ts).
 */
export function operatorRoutes(deps: {
  market: MarketService;
  auth: AuthService;
  gate: OperatorGate;
  now?: () => number;
}): Router {
  const now = deps.now ?? Date.now;
  const { auth, gate } = deps;
  const r = Router();
  serve(r, endpoints.createInvite, gate('admin'), async ({ body }) => ({
    code: await auth.createInvite(body.code),
  }));
  serve(r, endpoints.setCreditScore, gate('support'), async ({ params: { id }, body }, { res }) => {
    const before = await auth.creditScoreOf(id);
    if (before === null || !(await auth.setCreditScore(id, body.score)))
      throw notFound('No such user');
    noteAudit(res, {
      target: `user=${id}`,
      before: { score: before },
      after: { score: body.score },
    });
  });
  // A frozen user may read their account but not log in, trade, withdraw or move money
  // (403 ACCOUNT_FROZEN); unfreezing lifts it. Both need a reason, kept in the audit log.
  for (const [e, frozen] of [
    [endpoints.freezeUser, true],
    [endpoints.unfreezeUser, false],
  ] as const)
    serve(r, e, gate('support'), async ({ params: { id }, body }, { res }) => {
      const change = await auth.setFrozen(id, frozen ? body.reason : null);
      noteAudit(res, { target: `user=${id}`, before: { frozen: change.before } });
      return { id: String(id), frozen: change.after };
    });
  // Maintenance (MarketService.setMaintenance): orders on the product are refused with
  // PRODUCT_MAINTENANCE from the next market state (within a second).
  serve(r, endpoints.setMaintenance, gate('admin'), async ({ params, body }) => {
    const { id } = deps.market.spec(params.id);
    const { on, opensAt } = body;
    if (opensAt !== undefined && !on)
      throw validationFailed('opensAt', 'opensAt: only with on: true');
    if (opensAt !== undefined && opensAt <= now())
      throw validationFailed('opensAt', 'opensAt: must be in the future');
    await deps.market.setMaintenance(id, on ? { on, opensAt: opensAt ?? null } : { on });
    return { id, on, ...(opensAt ? { opensAt } : {}) };
  });
  return r;
}
