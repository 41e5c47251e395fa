import type { z } from 'zod';
import { endpoint } from '../contract/endpoint';
import { opsDepositDto, opsKycSubmissionDto, opsWithdrawalDto, pageOf } from '../contract/answers';
import { kycReviewQuery } from '../kyc/model';
import { depositReviewQuery, idParam, rejectBody, withdrawalReviewQuery } from '../wallet/requests';

/**
 * The operators' review queues (docs/API.md, Operators): deposits, withdrawals and identity
 * checks, declared once. Which roles reach them is the server's gate's (`gate('reviews')`).
 */
const tag = 'Operators';
const caller = 'operator';
const errors = { 404: ['NOT_FOUND'], 409: ['INVALID_STATE'] } as const;

/**
 * The three endpoints of one review queue: the list (filtered by `query`, a page of `item`),
 * approve, and reject with a reason; each decision answers the reviewed item, and a second review
 * of one item is 409 INVALID_STATE, so repeating a call is harmless.
 */
function reviewQueue<const What extends string, Query extends z.ZodType, Dto extends z.ZodType>(
  names: { what: What; item: string; noun: string },
  query: Query,
  item: Dto,
) {
  const { what, noun } = names;
  const queue = `${what[0]!.toUpperCase()}${what.slice(1)}`;
  return {
    list: endpoint({
      method: 'get',
      path: `/ops/${what}`,
      operationId: `review${queue}`,
      summary: `The review queue of ${what}`,
      tag,
      caller,
      query,
      responses: { 200: pageOf(item) },
    }),
    approve: endpoint({
      method: 'post',
      path: `/ops/${what}/:id/approve`,
      operationId: `approve${names.item}`,
      summary: `Approve ${noun}`,
      tag,
      caller,
      params: idParam,
      responses: { 200: item },
      errors,
    }),
    reject: endpoint({
      method: 'post',
      path: `/ops/${what}/:id/reject`,
      operationId: `reject${names.item}`,
      summary: `Reject ${noun}, with a reason`,
      tag,
      caller,
      params: idParam,
      body: rejectBody,
      responses: { 200: item },
      errors,
    }),
  };
}

export const {
  list: depositQueue,
  approve: approveDeposit,
  reject: rejectDeposit,
} = reviewQueue(
  { what: 'deposits', item: 'Deposit', noun: 'a deposit' },
  depositReviewQuery,
  opsDepositDto,
);

export const {
  list: withdrawalQueue,
  approve: approveWithdrawal,
  reject: rejectWithdrawal,
} = reviewQueue(
  { what: 'withdrawals', item: 'Withdrawal', noun: 'a withdrawal' },
  withdrawalReviewQuery,
  opsWithdrawalDto,
);

export const {
  list: kycQueue,
  approve: approveKyc,
  reject: rejectKyc,
} = reviewQueue(
  { what: 'kyc', item: 'Kyc', noun: 'an identity check' },
  kycReviewQuery,
  opsKycSubmissionDto,
);
