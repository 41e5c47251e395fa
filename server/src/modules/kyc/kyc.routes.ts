import { Router } from 'express';
import { kycStateDto } from '@shared/dto';
import { kycBody } from '@shared/kyc';
import * as endpoints from '@shared/kyc.endpoints';
import * as reviews from '@shared/reviews.endpoints';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import type { AuthService } from '../auth/auth.service';
import type { OperatorGate } from '@server/platform/http/operator-gate';
import { declare } from '@server/platform/http/route';
import { serve } from '@server/platform/http/serve';
import { fileOf, imageForm } from '../uploads/upload.middleware';
import type { KycService } from './kyc.service';

/**
 * /api/kyc for the user (shared/src/kyc.endpoints.ts), /api/ops/kyc for operators
 * (shared/src/reviews.endpoints.ts).
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
  // The session is checked before the form is read, so anonymous uploads cost nothing.
  declare(
    r,
    {
      method: 'post',
      path: '/kyc',
      operationId: 'submitKyc',
      summary: 'Submit an identity check with photos of the ID',
      tag: 'Identity and savings',
      auth: user,
      form: { fields: kycBody, files: ['front', 'back'] },
      responses: { 201: kycStateDto },
      errors: { 409: ['INVALID_STATE'] },
    },
    imageForm(['front', 'back']),
    async (req, res) => {
      const body = parseOrThrow(kycBody, req.body);
      const photos = { front: fileOf(req, 'front'), back: fileOf(req, 'back') };
      res.status(201).json(await kyc.submit(sessionOf(res.locals).userId, body, photos));
    },
  );

  const operator = deps.gate('reviews');
  serve(r, reviews.kycQueue, operator, ({ query }) => kyc.review(query));
  serve(r, reviews.approveKyc, operator, ({ params }) => kyc.approve(params.id));
  serve(r, reviews.rejectKyc, operator, ({ params, body }) => kyc.reject(params.id, body.reason));
  return r;
}
