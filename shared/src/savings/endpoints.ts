import { endpoint } from '../contract/endpoint';
import {
  pageOf,
  savingsOverviewDto,
  savingsRecordDto,
  testClockStateDto,
} from '../contract/answers';
import { savingsTransferBody, testClockBody } from './model';
import { pageQuery } from '../wallet/requests';

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

/** The test clock: mounted only when the server starts with TEST_CLOCK=1 (else 404). */
const testClockTag = 'Test clock (TEST_CLOCK=1 only)';

export const testClock = endpoint({
  method: 'get',
  path: '/test/clock',
  operationId: 'testClock',
  summary: 'The test clock',
  tag: testClockTag,
  responses: { 200: testClockStateDto },
});

export const advanceTestClock = endpoint({
  method: 'post',
  path: '/test/clock',
  operationId: 'advanceTestClock',
  summary: 'Move the clock on; run the daily job',
  tag: testClockTag,
  body: testClockBody,
  responses: { 200: testClockStateDto },
});
