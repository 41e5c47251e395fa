import { Router } from 'express';
import {
  depositReviewQuery,
  idParam,
  rejectBody,
  withdrawalReviewQuery,
} from '@shared/wallet.schemas';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireOperator } from '../operator/operator.routes';
import type { OperatorTokenHashes } from '../operator/operator-token';
import type { WalletService } from './wallet.service';

/**
 * /api/ops/deposits, /api/ops/withdrawals, /api/ops/ledger/check: operator review. A second
 * review of one item answers 409 INVALID_STATE, so repeating a call is harmless.
 */
export function walletOpsRoutes(
  wallet: WalletService,
  operatorTokenHash: OperatorTokenHashes | null,
): Router {
  const r = Router();
  r.use('/ops', requireOperator(operatorTokenHash));
  const { deposits, withdrawals } = wallet;

  r.get('/ops/deposits', async (req, res) => {
    res.json(await deposits.review(parseOrThrow(depositReviewQuery, req.query)));
  });
  r.post('/ops/deposits/:id/approve', async (req, res) => {
    res.json(await deposits.approve(parseOrThrow(idParam, req.params).id));
  });
  r.post('/ops/deposits/:id/reject', async (req, res) => {
    const { id } = parseOrThrow(idParam, req.params);
    res.json(await deposits.reject(id, parseOrThrow(rejectBody, req.body).reason));
  });

  r.get('/ops/withdrawals', async (req, res) => {
    res.json(await withdrawals.review(parseOrThrow(withdrawalReviewQuery, req.query)));
  });
  r.post('/ops/withdrawals/:id/approve', async (req, res) => {
    res.json(await withdrawals.approve(parseOrThrow(idParam, req.params).id));
  });
  r.post('/ops/withdrawals/:id/reject', async (req, res) => {
    const { id } = parseOrThrow(idParam, req.params);
    res.json(await withdrawals.reject(id, parseOrThrow(rejectBody, req.body).reason));
  });

  r.get('/ops/ledger/check', async (_req, res) => {
    res.json(await wallet.checkLedger());
  });
  return r;
}
