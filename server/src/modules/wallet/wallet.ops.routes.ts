import { Router } from 'express';
import * as reviews from '@shared/operators/reviews.endpoints';
import * as endpoints from '@shared/wallet/ops.endpoints';
import type { OperatorGate } from '@server/platform/http/operator-gate';
import { serve } from '@server/platform/http/serve';
import { notFound } from '@server/platform/http/errors';
import type { WalletService } from './wallet.service';

/**
 * /api/ops/deposits, /api/ops/withdrawals, /api/ops/ledger/check, /api/ops/flagged-senders
 * (shared/src/operators/reviews.endpoints.ts, wallet-ops.endpoints.ts): operator review. A second review of
 * one item answers 409 INVALID_STATE, so repeating a call is harmless.
 */
export function walletOpsRoutes(wallet: WalletService, gate: OperatorGate): Router {
  const r = Router();
  const operator = gate('reviews');
  const { deposits, withdrawals } = wallet;

  serve(r, reviews.depositQueue, operator, ({ query }) => deposits.review(query));
  // One line per money state change, with ids and amounts (never the reason's text or a token).
  serve(r, reviews.approveDeposit, operator, async ({ params }, { req }) => {
    const d = await deposits.approve(params.id);
    req.log.info(
      { event: 'deposit.approved', depositId: d.id, userId: d.userId, amount: d.amount },
      'deposit approved',
    );
    return d;
  });
  serve(r, reviews.rejectDeposit, operator, async ({ params, body }, { req }) => {
    const d = await deposits.reject(params.id, body.reason);
    req.log.info(
      { event: 'deposit.rejected', depositId: d.id, userId: d.userId, amount: d.amount },
      'deposit rejected',
    );
    return d;
  });

  serve(r, reviews.withdrawalQueue, operator, ({ query }) => withdrawals.review(query));
  serve(r, reviews.approveWithdrawal, operator, async ({ params }, { req }) => {
    const w = await withdrawals.approve(params.id);
    req.log.info(
      { event: 'withdrawal.approved', withdrawalId: w.id, userId: w.userId, amount: w.amount },
      'withdrawal approved',
    );
    return w;
  });
  serve(r, reviews.rejectWithdrawal, operator, async ({ params, body }, { req }) => {
    const w = await withdrawals.reject(params.id, body.reason);
    req.log.info(
      { event: 'withdrawal.rejected', withdrawalId: w.id, userId: w.userId, amount: w.amount },
      'withdrawal rejected (funds returned)',
    );
    return w;
  });

  serve(r, endpoints.checkLedger, gate('admin'), () => wallet.checkLedger());

  // Senders whose USDT transfers wait for a review instead of being credited by themselves.
  serve(r, endpoints.flaggedSenders, operator, () => wallet.flaggedSenders.list());
  serve(r, endpoints.flagSender, operator, async ({ body }, { req }) => {
    const f = await wallet.flaggedSenders.flag(body);
    req.log.info({ event: 'sender.flagged', network: f.network }, 'sender flagged');
    return f;
  });
  serve(r, endpoints.unflagSender, operator, async ({ params: { network, address } }) => {
    if (!(await wallet.flaggedSenders.unflag(network, address))) throw notFound('Not flagged');
  });
  return r;
}
