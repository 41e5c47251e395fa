import { Router } from 'express';
import { z } from 'zod';
import {
  accountSummaryDto,
  depositChannelDto,
  depositDto,
  fundRecordDto,
  pageOf,
  withdrawalAccountDto,
  withdrawalDto,
  withdrawalHolderDto,
  withdrawalQuoteDto,
  withdrawalRulesDto,
} from '@shared/dto';
import {
  depositBody,
  idParam,
  ledgerQuery,
  pageQuery,
  withdrawalAccountBody,
  withdrawalBody,
  withdrawalQuoteQuery,
} from '@shared/wallet.schemas';
import { parseOrThrow } from '@server/platform/http/validate';
import { parseIdempotencyKey } from '@server/platform/idempotency';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { declare, type RouteSpec } from '@server/platform/http/route';
import type { AuthService } from '../auth/auth.service';
import { fileOf, imageForm } from '../uploads/upload.middleware';
import type { WalletService } from './wallet.service';
import { refusePracticeMoney } from './practice';

/** The user's wallet: summary, fund records, deposits, withdrawal accounts, withdrawals. */
export function walletRoutes(wallet: WalletService, auth: AuthService): Router {
  const r = Router();
  const user = requireUser(auth);
  const userId = (locals: Record<string, unknown>) => sessionOf(locals).userId;
  const spec = (s: Omit<RouteSpec, 'auth' | 'tag'>): RouteSpec => ({
    ...s,
    auth: user,
    tag: 'Wallet',
  });

  declare(
    r,
    {
      method: 'get',
      path: '/account/summary',
      operationId: 'accountSummary',
      summary: 'Balances and profit',
      tag: 'Accounts',
      auth: user,
      responses: { 200: accountSummaryDto },
    },
    async (_req, res) => {
      res.json(await wallet.summary(userId(res.locals)));
    },
  );
  declare(
    r,
    spec({
      method: 'get',
      path: '/wallet/ledger',
      operationId: 'fundRecords',
      summary: 'Fund records',
      query: ledgerQuery,
      responses: { 200: pageOf(fundRecordDto) },
    }),
    async (req, res) => {
      res.json(await wallet.fundRecords(userId(res.locals), parseOrThrow(ledgerQuery, req.query)));
    },
  );

  declare(
    r,
    spec({
      method: 'get',
      path: '/deposits/channels',
      operationId: 'depositChannels',
      summary: "The platform's bank details and the user's own USDT receiving addresses",
      responses: { 200: z.array(depositChannelDto) },
    }),
    async (_req, res) => {
      res.json(await wallet.depositChannels(userId(res.locals)));
    },
  );
  declare(
    r,
    spec({
      method: 'get',
      path: '/deposits',
      operationId: 'deposits',
      summary: "The user's deposits",
      query: pageQuery,
      responses: { 200: pageOf(depositDto) },
    }),
    async (req, res) => {
      res.json(await wallet.deposits.list(userId(res.locals), parseOrThrow(pageQuery, req.query)));
    },
  );
  // The session is checked before the form is read, so anonymous uploads cost nothing.
  declare(
    r,
    spec({
      method: 'post',
      path: '/deposits',
      operationId: 'createDeposit',
      summary:
        'Report a deposit: bank with its screenshot; a USDT transfer that did not arrive by its transaction id, checked on chain',
      form: { fields: depositBody, files: ['screenshot'] },
      idempotent: true,
      responses: { 201: depositDto },
      errors: {
        400: ['AMOUNT_OUT_OF_RANGE', 'PRACTICE_NOT_ALLOWED'],
        404: ['NOT_FOUND'],
        409: [
          'TOO_MANY_PENDING_DEPOSITS',
          'TX_ID_IN_USE',
          'TX_NOT_TO_YOUR_ADDRESS',
          'ALREADY_RESUBMITTED',
          'INVALID_STATE',
        ],
        422: ['TX_NOT_FOUND'],
        429: ['RATE_LIMITED'],
        503: ['CHAIN_UNAVAILABLE'],
      },
    }),
    imageForm(['screenshot']),
    async (req, res) => {
      const key = parseIdempotencyKey(req.headers['idempotency-key']);
      const body = parseOrThrow(depositBody, req.body);
      refusePracticeMoney(body.mode);
      const answer = await wallet.deposits.create(
        userId(res.locals),
        body,
        fileOf(req, 'screenshot'),
        key,
      );
      if (answer.status === 201)
        req.log.info(
          {
            event: 'deposit.requested',
            depositId: (answer.body as { id?: string }).id,
            userId: userId(res.locals),
          },
          'deposit requested',
        );
      res.status(answer.status).json(answer.body);
    },
  );

  declare(
    r,
    spec({
      method: 'get',
      path: '/withdrawal-accounts',
      operationId: 'withdrawalAccounts',
      summary: 'The bound withdrawal accounts',
      responses: { 200: z.array(withdrawalAccountDto) },
    }),
    async (_req, res) => {
      res.json(await wallet.withdrawals.accounts(userId(res.locals)));
    },
  );
  declare(
    r,
    spec({
      method: 'get',
      path: '/withdrawal-accounts/holder',
      operationId: 'withdrawalHolder',
      summary: 'The holder name a bank account is bound in (the verified identity)',
      responses: { 200: withdrawalHolderDto },
    }),
    async (_req, res) => {
      res.json(await wallet.withdrawals.holder(userId(res.locals)));
    },
  );
  declare(
    r,
    spec({
      method: 'get',
      path: '/withdrawal-accounts/:id',
      operationId: 'withdrawalAccount',
      summary: 'One bound withdrawal account',
      params: idParam,
      responses: { 200: withdrawalAccountDto },
      errors: { 404: ['NOT_FOUND'] },
    }),
    async (req, res) => {
      const { id } = parseOrThrow(idParam, req.params);
      res.json(await wallet.withdrawals.account(userId(res.locals), id));
    },
  );
  declare(
    r,
    spec({
      method: 'post',
      path: '/withdrawal-accounts',
      operationId: 'bindWithdrawalAccount',
      summary: 'Bind a card or an address',
      body: withdrawalAccountBody,
      responses: { 201: withdrawalAccountDto },
      errors: {
        400: ['HOLDER_NAME_MISMATCH'],
        403: ['WRONG_TRADE_PASSWORD', 'KYC_REQUIRED'],
        409: ['ACCOUNT_ALREADY_BOUND'],
        429: ['TOO_MANY_ATTEMPTS'],
      },
    }),
    async (req, res) => {
      const body = parseOrThrow(withdrawalAccountBody, req.body);
      res.status(201).json(await wallet.withdrawals.bind(userId(res.locals), body));
    },
  );

  declare(
    r,
    spec({
      method: 'get',
      path: '/withdrawals/rules',
      operationId: 'withdrawalRules',
      summary: 'The bounds of one withdrawal',
      responses: { 200: withdrawalRulesDto },
    }),
    (_req, res) => {
      res.json(wallet.withdrawalRules());
    },
  );
  declare(
    r,
    spec({
      method: 'get',
      path: '/withdrawals/quote',
      operationId: 'withdrawalQuote',
      summary: "A withdrawal's fee, what arrives, and when",
      query: withdrawalQuoteQuery,
      responses: { 200: withdrawalQuoteDto },
      errors: { 400: ['AMOUNT_OUT_OF_RANGE'], 404: ['NOT_FOUND'] },
    }),
    async (req, res) => {
      const q = parseOrThrow(withdrawalQuoteQuery, req.query);
      res.json(await wallet.withdrawals.quote(userId(res.locals), q.accountId, q.amount));
    },
  );
  declare(
    r,
    spec({
      method: 'get',
      path: '/withdrawals',
      operationId: 'withdrawals',
      summary: "The user's withdrawals",
      query: pageQuery,
      responses: { 200: pageOf(withdrawalDto) },
    }),
    async (req, res) => {
      const page = parseOrThrow(pageQuery, req.query);
      res.json(await wallet.withdrawals.list(userId(res.locals), page));
    },
  );
  declare(
    r,
    spec({
      method: 'post',
      path: '/withdrawals',
      operationId: 'createWithdrawal',
      summary: 'Ask for a withdrawal (the amount is held)',
      body: withdrawalBody,
      idempotent: true,
      responses: { 201: withdrawalDto },
      errors: {
        400: ['AMOUNT_OUT_OF_RANGE', 'PRACTICE_NOT_ALLOWED'],
        403: ['WRONG_TRADE_PASSWORD', 'KYC_REQUIRED'],
        404: ['NOT_FOUND'],
        409: ['INSUFFICIENT_BALANCE'],
        429: ['TOO_MANY_ATTEMPTS'],
      },
    }),
    async (req, res) => {
      const key = parseIdempotencyKey(req.headers['idempotency-key']);
      const body = parseOrThrow(withdrawalBody, req.body);
      refusePracticeMoney(body.mode);
      const answer = await wallet.withdrawals.create(userId(res.locals), body, key);
      if (answer.status === 201)
        req.log.info(
          {
            event: 'withdrawal.requested',
            withdrawalId: (answer.body as { id?: string }).id,
            userId: userId(res.locals),
            amount: body.amount,
          },
          'withdrawal requested (funds held)',
        );
      res.status(answer.status).json(answer.body);
    },
  );
  return r;
}
