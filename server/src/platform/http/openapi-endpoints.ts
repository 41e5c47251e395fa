import { z } from 'zod';
import * as accounts from '@shared/accounts';
import * as content from '@shared/content';
import type { ErrorCode } from '@shared/errors';
import { kycBody, kycReviewQuery } from '@shared/kyc';
import * as market from '@shared/market.schemas';
import { ordersQuery, placeOrderBody } from '@shared/orders';
import { savingsTransferBody, testClockBody } from '@shared/savings';
import * as wallet from '@shared/wallet.schemas';
import type { DtoName } from './openapi';

/**
 * Every endpoint of the contract (shared API.md) and of docs/API.md, keyed by operationId. Inputs
 * are the zod schemas the routes validate with; answers name a component of openapi.ts or are
 * small zod shapes. 400 VALIDATION_FAILED, 401/403 and the upload and idempotency errors follow
 * from the inputs and `auth`; `errors` lists the rest by status.
 */

/** A named answer shape (components/schemas) or an inline zod shape. */
export type Answer = DtoName | z.ZodType;
export interface Success {
  status: number;
  body?: Answer;
  list?: 'array' | 'page';
  /** A body that is not JSON (an image). */
  media?: string;
  description?: string;
}
export interface Endpoint {
  route: `${'GET' | 'POST' | 'PUT'} /${string}`;
  summary: string;
  tag: string;
  auth: 'anyone' | 'user' | 'operator' | 'userOrOperator';
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  /** A multipart body: text fields and image files. */
  form?: { fields: z.ZodType; files: string[] };
  /** Money-moving: takes an optional Idempotency-Key. */
  idempotent?: boolean;
  ok: Success;
  /** A second answer that is no error (`/readyz`: 503 with the same shape). */
  also?: Success;
  errors?: Partial<Record<400 | 401 | 403 | 404 | 409 | 429, ErrorCode[]>>;
}

type Entry = Omit<Endpoint, 'tag' | 'auth'> & Partial<Pick<Endpoint, 'auth'>>;
const op = (
  route: Endpoint['route'],
  summary: string,
  rest: Omit<Entry, 'route' | 'summary'>,
): Entry => ({ route, summary, ...rest });
/** Endpoints under one tag; `auth` says who may call them, unless an entry says otherwise. */
const group = (tag: string, auth: Endpoint['auth'], entries: Record<string, Entry>) =>
  Object.fromEntries(Object.entries(entries).map(([id, e]) => [id, { auth, ...e, tag }]));

const one = (body: Answer): Success => ({ status: 200, body });
const created = (body: Answer): Success => ({ status: 201, body });
const page = (body: DtoName): Success => ({ status: 200, body, list: 'page' });

/** One mode's house figures (GET /api/ops/house), minor units and counts. */
const houseFigures = z.object({
  placements: z.int(),
  volume: z.int().describe('Σ stakes placed'),
  openOrders: z.int(),
  exposure: z.int().describe('Σ stakes of open orders'),
  openPayout: z.int().describe('Σ payouts of open orders if every one won'),
  settled: z.int(),
  houseResult: z.int().describe('Σ(stake − payout) over settled orders'),
});
const array = (body: DtoName): Success => ({ status: 200, body, list: 'array' });
const noContent: Success = { status: 204 };
const notFound: Entry['errors'] = { 404: ['NOT_FOUND'] };

// Inputs whose schemas stay private to their routes file (orders.routes.ts, operator.routes.ts),
// described here by hand to match them.
const orderIdParam = z.object({ id: z.string().regex(/^\d{1,18}$/) });
const userIdParam = z.object({ id: z.int().positive() });
const inviteBody = z.object({
  code: z
    .string()
    .regex(/^[A-Za-z0-9]{4,32}$/)
    .optional(),
});
const creditScoreBody = z.object({ score: z.int().min(0).max(1000) });
const maintenanceBody = z.object({
  on: z.boolean(),
  opensAt: z.int().positive().optional().describe('epoch ms, in the future; only with on: true'),
});
const readiness = z.object({ ok: z.boolean(), checks: z.record(z.string(), z.boolean()) });

export const endpoints: Record<string, Endpoint> = {
  ...group('Accounts', 'anyone', {
    registerCheck: op('POST /api/auth/register/check', 'Check step 1 of registration', {
      body: accounts.registerCheckBody,
      ok: one(z.object({ ok: z.literal(true) })),
      errors: { 400: ['INVITE_INVALID'], 409: ['ACCOUNT_TAKEN'], 429: ['RATE_LIMITED'] },
    }),
    register: op('POST /api/auth/register', 'Open an account', {
      body: accounts.registerBody,
      ok: created('Registered'),
      errors: {
        400: ['INVITE_INVALID', 'PASSWORD_MISMATCH', 'TRADE_PASSWORD_MISMATCH'],
        409: ['ACCOUNT_TAKEN'],
        429: ['RATE_LIMITED'],
      },
    }),
    login: op('POST /api/auth/login', 'Log in: a session token', {
      body: accounts.loginBody,
      ok: one('LoginAnswer'),
      errors: { 401: ['BAD_CREDENTIALS'], 429: ['TOO_MANY_ATTEMPTS'] },
    }),
    logout: op('POST /api/auth/logout', 'End the session', { auth: 'user', ok: noContent }),
    me: op('GET /api/me', 'The signed-in user', { auth: 'user', ok: one('User') }),
    changePassword: op('POST /api/me/password', 'Change the login password', {
      auth: 'user',
      body: accounts.changePasswordBody,
      ok: noContent,
      errors: { 400: ['PASSWORD_MISMATCH'], 403: ['WRONG_PASSWORD'], 429: ['TOO_MANY_ATTEMPTS'] },
    }),
    changeTradePassword: op('POST /api/me/trade-password', 'Change the transaction password', {
      auth: 'user',
      body: accounts.changeTradePasswordBody,
      ok: noContent,
      errors: {
        400: ['TRADE_PASSWORD_MISMATCH'],
        403: ['WRONG_TRADE_PASSWORD'],
        429: ['TOO_MANY_ATTEMPTS'],
      },
    }),
    accountSummary: op('GET /api/account/summary', 'Balances and profit', {
      auth: 'user',
      ok: one('AccountSummary'),
    }),
    appInfo: op('GET /api/app-info', 'What the client needs first', { ok: one('AppInfo') }),
    page: op('GET /api/pages/{slug}', 'A text page (about, privacy, privacy-2, rules, …)', {
      params: content.pageParams,
      query: content.langQuery,
      ok: one('ContentPage'),
      errors: notFound,
    }),
  }),

  ...group('Market', 'anyone', {
    products: op('GET /api/market/products', 'The products, searched by name (q)', {
      query: market.productsQuery,
      ok: array('Product'),
    }),
    product: op('GET /api/market/products/{id}', 'One product', {
      params: market.productIdParam,
      ok: one('Product'),
      errors: notFound,
    }),
    candles: op('GET /api/market/candles', 'Candles, oldest first', {
      query: market.candlesQuery,
      ok: array('Candle'),
      errors: notFound,
    }),
    ticks: op('GET /api/market/ticks', 'The recorded tape', {
      query: market.ticksQuery,
      ok: array('TapeTick'),
      errors: notFound,
    }),
    fairness: op(
      'GET /api/market/fairness',
      'Commitments of the live feed, and secrets once revealed (docs/FAIRNESS.md)',
      { query: market.fairnessQuery, ok: array('FairnessPeriod'), errors: notFound },
    ),
  }),

  ...group('Orders', 'user', {
    placeOrder: op('POST /api/orders', 'Place an order', {
      body: placeOrderBody,
      idempotent: true,
      ok: created('Order'),
      errors: {
        400: ['AMOUNT_OUT_OF_RANGE', 'DURATION_INVALID'],
        404: ['NOT_FOUND'],
        409: [
          'INSUFFICIENT_BALANCE',
          'MARKET_CLOSED',
          'PRODUCT_MAINTENANCE',
          'QUOTE_STALE',
          'RATE_CHANGED',
        ],
      },
    }),
    orders: op('GET /api/orders', "The user's orders", { query: ordersQuery, ok: page('Order') }),
    order: op('GET /api/orders/{id}', "One of the user's orders", {
      params: orderIdParam,
      ok: one('Order'),
      errors: notFound,
    }),
  }),

  ...group('Wallet', 'user', {
    fundRecords: op('GET /api/wallet/ledger', 'Fund records', {
      query: wallet.ledgerQuery,
      ok: page('FundRecord'),
    }),
    depositChannels: op('GET /api/deposits/channels', "The platform's receiving details", {
      ok: array('DepositChannel'),
    }),
    createDeposit: op('POST /api/deposits', 'Report a deposit, with its screenshot', {
      form: { fields: wallet.depositBody, files: ['screenshot'] },
      idempotent: true,
      ok: created('Deposit'),
      errors: {
        400: ['AMOUNT_OUT_OF_RANGE', 'PRACTICE_NOT_ALLOWED'],
        409: ['TOO_MANY_PENDING_DEPOSITS'],
        429: ['RATE_LIMITED'],
      },
    }),
    deposits: op('GET /api/deposits', "The user's deposits", {
      query: wallet.pageQuery,
      ok: page('Deposit'),
    }),
    withdrawalAccounts: op('GET /api/withdrawal-accounts', 'The bound withdrawal accounts', {
      ok: array('WithdrawalAccount'),
    }),
    withdrawalAccount: op('GET /api/withdrawal-accounts/{id}', 'One bound withdrawal account', {
      params: wallet.idParam,
      ok: one('WithdrawalAccount'),
      errors: notFound,
    }),
    bindWithdrawalAccount: op('POST /api/withdrawal-accounts', 'Bind a card or an address', {
      body: wallet.withdrawalAccountBody,
      ok: created('WithdrawalAccount'),
      errors: {
        403: ['WRONG_TRADE_PASSWORD'],
        409: ['ACCOUNT_ALREADY_BOUND'],
        429: ['TOO_MANY_ATTEMPTS'],
      },
    }),
    withdrawalRules: op('GET /api/withdrawals/rules', 'The bounds of one withdrawal', {
      ok: one('WithdrawalRules'),
    }),
    createWithdrawal: op('POST /api/withdrawals', 'Ask for a withdrawal (the amount is held)', {
      body: wallet.withdrawalBody,
      idempotent: true,
      ok: created('Withdrawal'),
      errors: {
        400: ['AMOUNT_OUT_OF_RANGE', 'PRACTICE_NOT_ALLOWED'],
        403: ['WRONG_TRADE_PASSWORD', 'KYC_REQUIRED'],
        404: ['NOT_FOUND'],
        409: ['INSUFFICIENT_BALANCE'],
        429: ['TOO_MANY_ATTEMPTS'],
      },
    }),
    withdrawals: op('GET /api/withdrawals', "The user's withdrawals", {
      query: wallet.pageQuery,
      ok: page('Withdrawal'),
    }),
    resetPractice: op(
      'POST /api/practice/reset',
      'Set the practice balance back to PRACTICE_BALANCE (its own ledger transfer)',
      {
        ok: one(z.object({ practiceAvailable: z.int() })),
        errors: { 409: ['PRACTICE_ORDERS_OPEN'] },
      },
    ),
  }),

  ...group('Identity and savings', 'user', {
    kyc: op('GET /api/kyc', 'The identity check', { ok: one('KycState') }),
    submitKyc: op('POST /api/kyc', 'Submit an identity check with photos of the ID', {
      form: { fields: kycBody, files: ['front', 'back'] },
      ok: created('KycState'),
      errors: { 409: ['INVALID_STATE'] },
    }),
    savings: op('GET /api/savings', 'The savings balance', { ok: one('SavingsOverview') }),
    savingsIn: savingsTransfer('in'),
    savingsOut: savingsTransfer('out'),
    savingsRecords: op('GET /api/savings/records', 'Transfers in and out, and income', {
      query: wallet.pageQuery,
      ok: page('SavingsRecord'),
    }),
  }),

  ...group('Content', 'anyone', {
    news: op('GET /api/news', 'News, newest first', {
      query: content.newsListQuery,
      ok: page('NewsSummary'),
    }),
    newsItem: op('GET /api/news/{id}', 'One news item', {
      params: content.newsParams,
      query: content.langQuery,
      ok: one('NewsItem'),
      errors: notFound,
    }),
    home: op('GET /api/content/home', 'What Home shows besides the products', {
      query: content.langQuery,
      ok: one('HomeContent'),
    }),
    messages: op('GET /api/messages', "The user's messages and the broadcasts", {
      auth: 'user',
      query: content.messageListQuery,
      ok: page('Message'),
    }),
    unreadCount: op('GET /api/messages/unread-count', 'How many messages are unread', {
      auth: 'user',
      ok: one(z.object({ count: z.int() })),
    }),
    readAllMessages: op('POST /api/messages/read-all', 'Mark every message read', {
      auth: 'user',
      ok: noContent,
    }),
    readMessage: op('POST /api/messages/{id}/read', 'Mark one message read', {
      auth: 'user',
      params: content.messageParams,
      ok: noContent,
      errors: notFound,
    }),
    upload: op('GET /api/uploads/{id}', 'An uploaded image, to its owner or an operator', {
      auth: 'userOrOperator',
      ok: { status: 200, media: 'image/*', description: 'The image' },
      errors: notFound,
    }),
  }),

  ...group('Operators', 'operator', {
    ...reviews('deposits', 'Deposit', 'a deposit', wallet.depositReviewQuery, 'OpsDeposit'),
    ...reviews(
      'withdrawals',
      'Withdrawal',
      'a withdrawal',
      wallet.withdrawalReviewQuery,
      'OpsWithdrawal',
    ),
    ...reviews('kyc', 'Kyc', 'an identity check', kycReviewQuery, 'OpsKycSubmission'),
    createInvite: op('POST /api/ops/invites', 'Create an invite code (random unless given)', {
      body: inviteBody,
      ok: created(z.object({ code: z.string() })),
      errors: { 409: ['INVALID_STATE'] },
    }),
    setMaintenance: op('POST /api/ops/products/{id}/maintenance', 'Start or end maintenance', {
      params: market.productIdParam,
      body: maintenanceBody,
      ok: one(z.object({ id: z.string(), on: z.boolean(), opensAt: z.int().optional() })),
      errors: notFound,
    }),
    setCreditScore: op('POST /api/ops/users/{id}/credit-score', "Set a user's credit score", {
      params: userIdParam,
      body: creditScoreBody,
      ok: noContent,
      errors: notFound,
    }),
    sendMessage: op('POST /api/ops/messages', 'Send a message to one user, or to all', {
      body: content.opsMessageBody,
      ok: created('OpsMessage'),
      errors: notFound,
    }),
    publishNews: op('POST /api/ops/news', "Publish news, or one language's text of an item", {
      body: content.opsNewsBody,
      ok: created('NewsItem'),
      errors: notFound,
    }),
    setPage: op('PUT /api/ops/pages/{slug}', "Set one language's text of a page", {
      params: content.pageParams,
      body: content.opsPageBody,
      ok: one('ContentPage'),
      errors: notFound,
    }),
    setBanners: op('PUT /api/ops/banners/{lang}', "Replace one language's Home banners", {
      params: content.contentLangParams,
      body: content.opsBannersBody,
      ok: one('HomeContent'),
    }),
    setHighlights: op('PUT /api/ops/highlights/{lang}', "Replace one language's Home highlights", {
      params: content.contentLangParams,
      body: content.opsHighlightsBody,
      ok: one('HomeContent'),
    }),
    seedContent: op(
      'POST /api/ops/content/seed',
      'Write the default banners, highlights, news and pages once (seeded: whether this call did)',
      { ok: one(z.object({ seeded: z.boolean() })) },
    ),
    checkLedger: op('GET /api/ops/ledger/check', 'Check that the ledger balances', {
      ok: one('LedgerCheck'),
    }),
    houseFigures: op(
      'GET /api/ops/house',
      'Placements, exposure and house result, real and practice apart',
      { ok: one(z.object({ real: houseFigures, practice: houseFigures })) },
    ),
  }),

  ...group('Test clock (TEST_CLOCK=1 only)', 'anyone', {
    testClock: op('GET /api/test/clock', 'The test clock', { ok: one('TestClockState') }),
    advanceTestClock: op('POST /api/test/clock', 'Move the clock on; run the daily job', {
      body: testClockBody,
      ok: one('TestClockState'),
    }),
  }),

  ...group('Service', 'anyone', {
    openApi: op('GET /api/openapi.json', 'This document', {
      ok: one(z.looseObject({ openapi: z.literal('3.1.0') })),
    }),
    health: op('GET /healthz', 'The process answers', {
      ok: one(z.object({ ok: z.literal(true) })),
    }),
    ready: op('GET /readyz', 'Every dependency answers', {
      ok: one(readiness),
      also: { status: 503, body: readiness, description: 'A check failed (false)' },
    }),
  }),
};

function savingsTransfer(way: 'in' | 'out'): Entry {
  return op(`POST /api/savings/${way}`, `Transfer ${way === 'in' ? 'into' : 'out of'} savings`, {
    body: savingsTransferBody,
    idempotent: true,
    ok: created('SavingsRecord'),
    errors: {
      400: ['AMOUNT_OUT_OF_RANGE', 'PRACTICE_NOT_ALLOWED'],
      409: ['DAILY_LIMIT_REACHED', 'INSUFFICIENT_BALANCE'],
    },
  });
}

/** One operator review queue: the list, approve and reject (a second review → 409). */
function reviews(what: string, item: string, noun: string, query: z.ZodType, answer: DtoName) {
  const errors: Entry['errors'] = { 404: ['NOT_FOUND'], 409: ['INVALID_STATE'] };
  const params = wallet.idParam;
  const queue = what[0]!.toUpperCase() + what.slice(1);
  return {
    [`review${queue}`]: op(`GET /api/ops/${what}`, `The review queue of ${what}`, {
      query,
      ok: page(answer),
    }),
    [`approve${item}`]: op(`POST /api/ops/${what}/{id}/approve`, `Approve ${noun}`, {
      params,
      ok: one(answer),
      errors,
    }),
    [`reject${item}`]: op(`POST /api/ops/${what}/{id}/reject`, `Reject ${noun}, with a reason`, {
      params,
      body: wallet.rejectBody,
      ok: one(answer),
      errors,
    }),
  };
}
