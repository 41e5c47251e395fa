import { Router } from 'express';
import { kycBody, kycReviewQuery } from '@shared/kyc';
import { idParam, rejectBody } from '@shared/wallet.schemas';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import type { AuthService } from '../auth/auth.service';
import { requireOperator } from '@server/platform/http/auth';
import type { OperatorTokenHashes } from '@server/platform/http/auth';
import { fileOf, imageForm } from '../uploads/upload.middleware';
import type { KycService } from './kyc.service';

/** /api/kyc for the user, /api/ops/kyc for operators. */
export function kycRoutes(deps: {
  kyc: KycService;
  auth: AuthService;
  operatorTokenHash: OperatorTokenHashes | null;
}): Router {
  const { kyc } = deps;
  const r = Router();
  const user = requireUser(deps.auth);

  r.get('/kyc', user, async (_req, res) => {
    res.json(await kyc.state(sessionOf(res.locals).userId));
  });
  // The session is checked before the form is read, so anonymous uploads cost nothing.
  r.post('/kyc', user, imageForm(['front', 'back']), async (req, res) => {
    const body = parseOrThrow(kycBody, req.body);
    const photos = { front: fileOf(req, 'front'), back: fileOf(req, 'back') };
    res.status(201).json(await kyc.submit(sessionOf(res.locals).userId, body, photos));
  });

  r.use('/ops/kyc', requireOperator(deps.operatorTokenHash));
  r.get('/ops/kyc', async (req, res) => {
    res.json(await kyc.review(parseOrThrow(kycReviewQuery, req.query)));
  });
  r.post('/ops/kyc/:id/approve', async (req, res) => {
    res.json(await kyc.approve(parseOrThrow(idParam, req.params).id));
  });
  r.post('/ops/kyc/:id/reject', async (req, res) => {
    const { id } = parseOrThrow(idParam, req.params);
    res.json(await kyc.reject(id, parseOrThrow(rejectBody, req.body).reason));
  });
  return r;
}
