import { endpoint } from './contract/endpoint';
import { pageOf, savingsOverviewDto, savingsRecordDto } from './dto';
import { savingsTransferBody } from './savings';
import { pageQuery } from './wallet.schemas';

/** The savings endpoints (docs/API.md, Identity and savings), declared once. */
const tag = 'Identity and savings';

export const savings = endpoint({
  method: 'get',
  path: '/savings',
  operationId: 'savings',
  summary: 'The savings balance',
  tag,
  caller: 'user',
  responses: { 200: savingsOverviewDto },
});

const transfer = {
  tag,
  caller: 'user',
  body: savingsTransferBody,
  idempotent: true,
  responses: { 201: savingsRecordDto },
  errors: {
    400: ['AMOUNT_OUT_OF_RANGE', 'PRACTICE_NOT_ALLOWED'],
    409: ['DAILY_LIMIT_REACHED', 'INSUFFICIENT_BALANCE'],
  },
} as const;

export const savingsIn = endpoint({
  ...transfer,
  method: 'post',
  path: '/savings/in',
  operationId: 'savingsIn',
  summary: 'Transfer into savings',
});

export const savingsOut = endpoint({
  ...transfer,
  method: 'post',
  path: '/savings/out',
  operationId: 'savingsOut',
  summary: 'Transfer out of savings',
});

export const savingsRecords = endpoint({
  method: 'get',
  path: '/savings/records',
  operationId: 'savingsRecords',
  summary: 'Transfers in and out, and income',
  tag,
  caller: 'user',
  query: pageQuery,
  responses: { 200: pageOf(savingsRecordDto) },
});
