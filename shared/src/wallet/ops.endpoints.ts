import { z } from 'zod';
import { endpoint } from '../contract/endpoint';
import { flaggedSenderDto, ledgerCheckDto } from '../contract/answers';
import { flaggedSenderBody, flaggedSenderParams } from './requests';

/**
 * The operators' wallet endpoints besides the review queues (operators/reviews.endpoints.ts), declared
 * once: the ledger check, and the senders whose USDT transfers wait for a review instead of being
 * credited by themselves. Which roles reach them is the server's gate's.
 */
const tag = 'Operators';
const caller = 'operator';

export const checkLedger = endpoint({
  method: 'get',
  path: '/ops/ledger/check',
  operationId: 'checkLedger',
  summary: 'Check that the ledger balances',
  tag,
  caller,
  responses: { 200: ledgerCheckDto },
});

export const flaggedSenders = endpoint({
  method: 'get',
  path: '/ops/flagged-senders',
  operationId: 'flaggedSenders',
  summary: 'Senders whose USDT transfers wait for an operator',
  tag,
  caller,
  responses: { 200: z.array(flaggedSenderDto) },
});

export const flagSender = endpoint({
  method: 'post',
  path: '/ops/flagged-senders',
  operationId: 'flagSender',
  summary: 'Flag a sender: their USDT transfers wait for an operator',
  tag,
  caller,
  body: flaggedSenderBody,
  responses: { 201: flaggedSenderDto },
});

export const unflagSender = endpoint({
  method: 'delete',
  path: '/ops/flagged-senders/:network/:address',
  operationId: 'unflagSender',
  summary: 'Stop holding a sender’s USDT transfers',
  tag,
  caller,
  params: flaggedSenderParams,
  responses: { 204: null },
  errors: { 404: ['NOT_FOUND'] },
});
