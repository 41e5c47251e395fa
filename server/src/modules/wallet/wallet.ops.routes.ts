import { Router } from 'express';
import {
  depositReviewQuery,
  idParam,
  rejectBody,
  withdrawalReviewQuery,
} from '@shared/wallet.schemas';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireOperator } from '@server/platform/http/auth';
import type { OperatorTokenHashes } from '@server/platform/http/auth';
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
  // One line per money state change, with ids and amounts (never the reason's text or a token).
  r.post('/ops/deposits/:id/approve', async (req, res) => {
    const d = await deposits.approve(parseOrThrow(idParam, req.params).id);
    req.log.info(
      { event: 'deposit.approved', depositId: d.id, userId: d.userId, amount: d.amount },
      'deposit approved',
    );
    res.json(d);
  });
  r.post('/ops/deposits/:id/reject', async (req, res) => {
    const { id } = parseOrThrow(idParam, req.params);
    const d = await deposits.reject(id, parseOrThrow(rejectBody, req.body).reason);
    req.log.info(
      { event: 'deposit.rejected', depositId: d.id, userId: d.userId, amount: d.amount },
      'deposit rejected',
    );
    res.json(d);
  });

  r.get('/ops/withdrawals', async (req, res) => {
    res.json(await withdrawals.review(parseOrThrow(withdrawalReviewQuery, req.query)));
  });
  r.post('/ops/withdrawals/:id/approve', async (req, res) => {
    const w = await withdrawals.approve(parseOrThrow(idParam, req.params).id);
    req.log.info(
      { event: 'withdrawal.approved', withdrawalId: w.id, userId: w.userId, amount: w.amount },
      'withdrawal approved',
    );
    res.json(w);
  });
  r.post('/ops/withdrawals/:id/reject', async (req, res) => {
    const { id } = parseOrThrow(idParam, req.params);
    const w = await withdrawals.reject(id, parseOrThrow(rejectBody, req.body).reason);
    req.log.info(
      { event: 'withdrawal.rejected', withdrawalId: w.id, userId: w.userId, amount: w.amount },
      'withdrawal rejected (funds returned)',
    );
    res.json(w);
  });

  r.get('/ops/ledger/check', async (_req, res) => {
    res.json(await wallet.checkLedger());
  });
  return r;
}
