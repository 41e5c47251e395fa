import { z } from 'zod';
import { endpoint } from '../contract/endpoint';
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
} from '../contract/answers';
import { imagePart } from '../uploads/values';
import { depositChannels as channels } from './values';
import {
  depositBody,
  idParam,
  ledgerQuery,
  pageQuery,
  withdrawalAccountBody,
  withdrawalBody,
  withdrawalQuoteQuery,
} from './requests';

/**
 * The user's wallet: summary, fund records, deposits (a deposit's report is a multipart form with
 * its screenshot), withdrawal accounts, withdrawals and the practice reset, declared once.
 */
const tag = 'Wallet';
const caller = 'user';

export const accountSummary = endpoint({
  method: 'get',
  path: '/account/summary',
  operationId: 'accountSummary',
  summary: 'Balances and profit',
  tag: 'Accounts',
  caller,
  responses: { 200: accountSummaryDto },
});

export const fundRecords = endpoint({
  method: 'get',
  path: '/wallet/ledger',
  operationId: 'fundRecords',
  summary: 'Fund records',
  tag,
  caller,
  query: ledgerQuery,
  responses: { 200: pageOf(fundRecordDto) },
});

export const depositChannels = endpoint({
  method: 'get',
  path: '/deposits/channels',
  operationId: 'depositChannels',
  summary: "The platform's bank details and the user's own USDT receiving addresses",
  tag,
  caller,
  responses: { 200: z.array(depositChannelDto) },
});

export const deposits = endpoint({
  method: 'get',
  path: '/deposits',
  operationId: 'deposits',
  summary: "The user's deposits",
  tag,
  caller,
  query: pageQuery.extend({
    channel: z.enum(channels).optional().describe('only the deposits of this channel'),
  }),
  responses: { 200: pageOf(depositDto) },
});

export const createDeposit = endpoint({
  method: 'post',
  path: '/deposits',
  operationId: 'createDeposit',
  summary:
    'Report a deposit: bank with its screenshot; a USDT transfer that did not arrive by its transaction id, checked on chain',
  tag,
  caller,
  // The screenshot is required of a bank deposit only: the service refuses its absence.
  form: { fields: depositBody, files: [{ name: 'screenshot', count: 1, ...imagePart }] },
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
});

export const withdrawalAccounts = endpoint({
  method: 'get',
  path: '/withdrawal-accounts',
  operationId: 'withdrawalAccounts',
  summary: 'The bound withdrawal accounts',
  tag,
  caller,
  responses: { 200: z.array(withdrawalAccountDto) },
});

export const withdrawalHolder = endpoint({
  method: 'get',
  path: '/withdrawal-accounts/holder',
  operationId: 'withdrawalHolder',
  summary: 'The holder name a bank account is bound in (the verified identity)',
  tag,
  caller,
  responses: { 200: withdrawalHolderDto },
});

export const withdrawalAccount = endpoint({
  method: 'get',
  path: '/withdrawal-accounts/:id',
  operationId: 'withdrawalAccount',
  summary: 'One bound withdrawal account',
  tag,
  caller,
  params: idParam,
  responses: { 200: withdrawalAccountDto },
  errors: { 404: ['NOT_FOUND'] },
});

export const bindWithdrawalAccount = endpoint({
  method: 'post',
  path: '/withdrawal-accounts',
  operationId: 'bindWithdrawalAccount',
  summary: 'Bind a card or an address',
  tag,
  caller,
  body: withdrawalAccountBody,
  responses: { 201: withdrawalAccountDto },
  errors: {
    400: ['HOLDER_NAME_MISMATCH', 'TWO_FACTOR_CODE_WRONG'],
    403: ['WRONG_TRADE_PASSWORD', 'KYC_REQUIRED', 'TWO_FACTOR_REQUIRED'],
    409: ['ACCOUNT_ALREADY_BOUND'],
    429: ['TOO_MANY_ATTEMPTS'],
  },
});

export const withdrawalRules = endpoint({
  method: 'get',
  path: '/withdrawals/rules',
  operationId: 'withdrawalRules',
  summary: 'The bounds of one withdrawal',
  tag,
  caller,
  responses: { 200: withdrawalRulesDto },
});

export const withdrawalQuote = endpoint({
  method: 'get',
  path: '/withdrawals/quote',
  operationId: 'withdrawalQuote',
  summary: "A withdrawal's fee, what arrives, and when",
  tag,
  caller,
  query: withdrawalQuoteQuery,
  responses: { 200: withdrawalQuoteDto },
  errors: { 400: ['AMOUNT_OUT_OF_RANGE'], 404: ['NOT_FOUND'] },
});

export const withdrawals = endpoint({
  method: 'get',
  path: '/withdrawals',
  operationId: 'withdrawals',
  summary: "The user's withdrawals",
  tag,
  caller,
  query: pageQuery,
  responses: { 200: pageOf(withdrawalDto) },
});

export const createWithdrawal = endpoint({
  method: 'post',
  path: '/withdrawals',
  operationId: 'createWithdrawal',
  summary: 'Ask for a withdrawal (the amount is held)',
  tag,
  caller,
  body: withdrawalBody,
  idempotent: true,
  responses: { 201: withdrawalDto },
  errors: {
    400: ['AMOUNT_OUT_OF_RANGE', 'PRACTICE_NOT_ALLOWED', 'TWO_FACTOR_CODE_WRONG'],
    403: ['WRONG_TRADE_PASSWORD', 'KYC_REQUIRED', 'TWO_FACTOR_REQUIRED'],
    404: ['NOT_FOUND'],
    409: ['INSUFFICIENT_BALANCE', 'ACCOUNT_ON_HOLD'],
    429: ['TOO_MANY_ATTEMPTS'],
  },
});

export const resetPractice = endpoint({
  method: 'post',
  path: '/practice/reset',
  operationId: 'resetPractice',
  summary: 'Set the practice balance back to PRACTICE_BALANCE (its own ledger transfer)',
  tag,
  caller,
  responses: { 200: z.object({ practiceAvailable: z.int() }) },
  errors: { 409: ['PRACTICE_ORDERS_OPEN'], 429: ['RATE_LIMITED'] },
});
