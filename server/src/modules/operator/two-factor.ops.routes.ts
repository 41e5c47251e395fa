import { Router } from 'express';
import * as endpoints from '@shared/accounts/ops.endpoints';
import { serve } from '@server/platform/http/serve';
import { noteAudit, operatorOf, type OperatorGate } from '@server/platform/http/operator-gate';
import type { TwoFactorResets } from '../auth/two-factor.reset';

/**
 * What support changes of a user's account security (issue 39): one session ended, and the
 * recovery procedure of docs/OPERATIONS.md (two-factor: a user who lost the authenticator) —
 * support asks for a reset with a reason and a ticket, another operator, an admin, approves it,
 * either calls it off. The gate writes each to the audit log with its answer (the request's
 * reason too), under the user as the profile's other actions are.
 */
export function twoFactorOpsRoutes(twoFactor: TwoFactorResets, gate: OperatorGate): Router {
  const r = Router();
  serve(
    r,
    endpoints.endUserSession,
    gate('support'),
    async ({ params: { id, session } }, { res }) => {
      await twoFactor.endSession(id, session);
      noteAudit(res, { target: `user=${id} session=${session}` });
    },
  );
  serve(
    r,
    endpoints.requestTwoFactorReset,
    gate('support'),
    ({ params: { id }, body }, { res }) => {
      noteAudit(res, { target: `user=${id}` });
      return twoFactor.request(id, operatorOf(res.locals), body);
    },
  );
  serve(r, endpoints.approveTwoFactorReset, gate('admin'), ({ params: { id } }, { res }) => {
    noteAudit(res, { target: `user=${id}` });
    return twoFactor.approve(id, operatorOf(res.locals));
  });
  serve(r, endpoints.cancelUserTwoFactorReset, gate('support'), ({ params: { id } }, { res }) => {
    noteAudit(res, { target: `user=${id}` });
    return twoFactor.cancel(id, operatorOf(res.locals));
  });
  return r;
}
