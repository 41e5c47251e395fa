import { Router } from 'express';
import { z } from 'zod';
import {
  flaggedSenderDto,
  ledgerCheckDto,
  opsDepositDto,
  opsWithdrawalDto,
  pageOf,
} from '@shared/dto';
import {
  depositReviewQuery,
  flaggedSenderBody,
  flaggedSenderParams,
  idParam,
  rejectBody,
  withdrawalReviewQuery,
} from '@shared/wallet.schemas';
import { parseOrThrow } from '@server/platform/http/validate';
import type { OperatorGate } from '@server/platform/http/operator-gate';
import { declare, reviewQueue } from '@server/platform/http/route';
import { notFound } from '@server/platform/http/errors';
import type { WalletService } from './wallet.service';

/**
 * /api/ops/deposits, /api/ops/withdrawals, /api/ops/ledger/check: operator review. A second
 * review of one item answers 409 INVALID_STATE, so repeating a call is harmless.
 */
export function walletOpsRoutes(wallet: WalletService, gate: OperatorGate): Router {
  const r = Router();
  const operator = gate('reviews');
  const { deposits, withdrawals } = wallet;
  const deposit = reviewQueue({ what: 'deposits', item: 'Deposit', noun: 'a deposit' }, operator);
  const withdrawal = reviewQueue(
    { what: 'withdrawals', item: 'Withdrawal', noun: 'a withdrawal' },
    operator,
  );

  declare(r, deposit.list(depositReviewQuery, pageOf(opsDepositDto)), async (req, res) => {
    res.json(await deposits.review(parseOrThrow(depositReviewQuery, req.query)));
  });
  // One line per money state change, with ids and amounts (never the reason's text or a token).
  declare(r, deposit.approve(idParam, opsDepositDto), async (req, res) => {
    const d = await deposits.approve(parseOrThrow(idParam, req.params).id);
    req.log.info(
      { event: 'deposit.approved', depositId: d.id, userId: d.userId, amount: d.amount },
      'deposit approved',
    );
    res.json(d);
  });
  declare(r, deposit.reject(idParam, rejectBody, opsDepositDto), async (req, res) => {
    const { id } = parseOrThrow(idParam, req.params);
    const d = await deposits.reject(id, parseOrThrow(rejectBody, req.body).reason);
    req.log.info(
      { event: 'deposit.rejected', depositId: d.id, userId: d.userId, amount: d.amount },
      'deposit rejected',
    );
    res.json(d);
  });

  declare(r, withdrawal.list(withdrawalReviewQuery, pageOf(opsWithdrawalDto)), async (req, res) => {
    res.json(await withdrawals.review(parseOrThrow(withdrawalReviewQuery, req.query)));
  });
  declare(r, withdrawal.approve(idParam, opsWithdrawalDto), async (req, res) => {
    const w = await withdrawals.approve(parseOrThrow(idParam, req.params).id);
    req.log.info(
      { event: 'withdrawal.approved', withdrawalId: w.id, userId: w.userId, amount: w.amount },
      'withdrawal approved',
    );
    res.json(w);
  });
  declare(r, withdrawal.reject(idParam, rejectBody, opsWithdrawalDto), async (req, res) => {
    const { id } = parseOrThrow(idParam, req.params);
    const w = await withdrawals.reject(id, parseOrThrow(rejectBody, req.body).reason);
    req.log.info(
      { event: 'withdrawal.rejected', withdrawalId: w.id, userId: w.userId, amount: w.amount },
      'withdrawal rejected (funds returned)',
    );
    res.json(w);
  });

  declare(
    r,
    {
      method: 'get',
      path: '/ops/ledger/check',
      operationId: 'checkLedger',
      summary: 'Check that the ledger balances',
      tag: 'Operators',
      auth: gate('admin'),
      responses: { 200: ledgerCheckDto },
    },
    async (_req, res) => {
      res.json(await wallet.checkLedger());
    },
  );

  // Senders whose USDT transfers wait for a review instead of being credited by themselves.
  declare(
    r,
    {
      method: 'get',
      path: '/ops/flagged-senders',
      operationId: 'flaggedSenders',
      summary: 'Senders whose USDT transfers wait for an operator',
      tag: 'Operators',
      auth: operator,
      responses: { 200: z.array(flaggedSenderDto) },
    },
    async (_req, res) => {
      res.json(await wallet.flaggedSenders.list());
    },
  );
  declare(
    r,
    {
      method: 'post',
      path: '/ops/flagged-senders',
      operationId: 'flagSender',
      summary: 'Flag a sender: their USDT transfers wait for an operator',
      tag: 'Operators',
      auth: operator,
      body: flaggedSenderBody,
      responses: { 201: flaggedSenderDto },
    },
    async (req, res) => {
      const f = await wallet.flaggedSenders.flag(parseOrThrow(flaggedSenderBody, req.body));
      req.log.info({ event: 'sender.flagged', network: f.network }, 'sender flagged');
      res.status(201).json(f);
    },
  );
  declare(
    r,
    {
      method: 'delete',
      path: '/ops/flagged-senders/:network/:address',
      operationId: 'unflagSender',
      summary: 'Stop holding a sender’s USDT transfers',
      tag: 'Operators',
      auth: operator,
      params: flaggedSenderParams,
      responses: { 204: null },
      errors: { 404: ['NOT_FOUND'] },
    },
    async (req, res) => {
      const { network, address } = parseOrThrow(flaggedSenderParams, req.params);
      if (!(await wallet.flaggedSenders.unflag(network, address))) throw notFound('Not flagged');
      res.status(204).end();
    },
  );
  return r;
}
