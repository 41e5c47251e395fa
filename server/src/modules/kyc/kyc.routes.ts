import { Router } from 'express';
import { kycStateDto, opsKycSubmissionDto, pageOf } from '@shared/dto';
import { kycBody, kycReviewQuery } from '@shared/kyc';
import { idParam, rejectBody } from '@shared/wallet.schemas';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import type { AuthService } from '../auth/auth.service';
import type { OperatorGate } from '@server/platform/http/operator-gate';
import { declare, reviewQueue } from '@server/platform/http/route';
import { fileOf, imageForm } from '../uploads/upload.middleware';
import type { KycService } from './kyc.service';

/** /api/kyc for the user, /api/ops/kyc for operators. */
export function kycRoutes(deps: {
  kyc: KycService;
  auth: AuthService;
  gate: OperatorGate;
}): Router {
  const { kyc } = deps;
  const r = Router();
  const user = requireUser(deps.auth);
  const tag = 'Identity and savings';

  declare(
    r,
    {
      method: 'get',
      path: '/kyc',
      operationId: 'kyc',
      summary: 'The identity check',
      tag,
      auth: user,
      responses: { 200: kycStateDto },
    },
    async (_req, res) => {
      res.json(await kyc.state(sessionOf(res.locals).userId));
    },
  );
  // The session is checked before the form is read, so anonymous uploads cost nothing.
  declare(
    r,
    {
      method: 'post',
      path: '/kyc',
      operationId: 'submitKyc',
      summary: 'Submit an identity check with photos of the ID',
      tag,
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

  const review = reviewQueue(
    { what: 'kyc', item: 'Kyc', noun: 'an identity check' },
    deps.gate('reviews'),
  );
  declare(r, review.list(kycReviewQuery, pageOf(opsKycSubmissionDto)), async (req, res) => {
    res.json(await kyc.review(parseOrThrow(kycReviewQuery, req.query)));
  });
  declare(r, review.approve(idParam, opsKycSubmissionDto), async (req, res) => {
    res.json(await kyc.approve(parseOrThrow(idParam, req.params).id));
  });
  declare(r, review.reject(idParam, rejectBody, opsKycSubmissionDto), async (req, res) => {
    const { id } = parseOrThrow(idParam, req.params);
    res.json(await kyc.reject(id, parseOrThrow(rejectBody, req.body).reason));
  });
  return r;
}
