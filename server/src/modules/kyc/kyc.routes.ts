import { Router } from 'express';
import * as endpoints from '@shared/kyc/endpoints';
import * as reviews from '@shared/operators/reviews.endpoints';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import type { AuthService } from '../auth/auth.service';
import type { OperatorGate } from '@server/platform/http/operator-gate';
import { serve } from '@server/platform/http/serve';
import type { KycService } from './kyc.service';

/**
 * /api/kyc for the user (shared/src/kyc/endpoints.ts), /api/ops/kyc for operators
 * (shared/src/operators/reviews.endpoints.ts).
 */
export function kycRoutes(deps: {
  kyc: KycService;
  auth: AuthService;
  gate: OperatorGate;
}): Router {
  const { kyc } = deps;
  const r = Router();
  const user = requireUser(deps.auth);

  serve(r, endpoints.kyc, user, (_input, { res }) => kyc.state(sessionOf(res.locals).userId));
  serve(r, endpoints.submitKyc, user, ({ fields, files }, { res }) =>
    kyc.submit(sessionOf(res.locals).userId, fields, files),
  );

  const operator = deps.gate('reviews');
  serve(r, reviews.kycQueue, operator, ({ query }) => kyc.review(query));
  serve(r, reviews.approveKyc, operator, ({ params }) => kyc.approve(params.id));
  serve(r, reviews.rejectKyc, operator, ({ params, body }) => kyc.reject(params.id, body.reason));
  return r;
}
