import { z } from 'zod';
import { endpoint } from '../contract/endpoint';
import {
  opsDashboardDto,
  opsReviewContextDto,
  opsUserDto,
  opsTwoFactorDto,
  opsUserProfileDto,
} from '../contract/answers';
import { freeText } from '../text';

/**
 * The console's endpoints about users and the platform (docs/API.md, Operators), declared once:
 * support finds a user, sees their account at a glance, sets the credit score, freezes and ends
 * sessions; a reviewer reads the context of a user under review; admins create invitation codes,
 * put a product in maintenance and read the dashboard. Which roles reach each is the server
 * gate's (operator-gate.ts).
 */
const tag = 'Operators';
const caller = 'operator';

const userIdParam = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const freezeBody = z.object({
  reason: freeText().trim().min(1, 'reason is required').max(500).describe('kept in the audit log'),
});

export const createInvite = endpoint({
  method: 'post',
  path: '/ops/invites',
  operationId: 'createInvite',
  summary: 'Create an invite code (random unless given)',
  tag,
  caller,
  body: z.object({
    code: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{4,32}$/, 'code must be 4-32 letters or digits')
      .optional(),
  }),
  responses: { 201: z.object({ code: z.string() }) },
  errors: { 409: ['INVALID_STATE'] },
});

export const setCreditScore = endpoint({
  method: 'post',
  path: '/ops/users/:id/credit-score',
  operationId: 'setCreditScore',
  summary: "Set a user's credit score",
  tag,
  caller,
  params: userIdParam,
  body: z.object({
    score: z.number().int().min(0).max(1000),
    reason: freeText().trim().min(1).max(500).optional().describe('kept in the audit log'),
  }),
  responses: { 204: null },
  errors: { 404: ['NOT_FOUND'] },
});

const frozenDto = z.object({ id: z.string(), frozen: z.boolean() });

/**
 * Freezing a user and lifting the freeze: one request (a reason, kept in the audit log) and one
 * answer, each on a path and operation of its own (`/ops/users/:id/freeze`, `freezeUser`).
 */
const freezeEndpoint = <const Action extends 'freeze' | 'unfreeze'>(
  action: Action,
  summary: string,
) =>
  endpoint({
    method: 'post',
    path: `/ops/users/:id/${action}`,
    operationId: `${action}User`,
    summary,
    tag,
    caller,
    params: userIdParam,
    body: freezeBody,
    responses: { 200: frozenDto },
    errors: { 404: ['NOT_FOUND'] },
  });

export const freezeUser = freezeEndpoint(
  'freeze',
  'Freeze a user: no login, orders, withdrawals or transfers',
);

export const unfreezeUser = freezeEndpoint('unfreeze', 'Lift a freeze');

export const setMaintenance = endpoint({
  method: 'post',
  path: '/ops/products/:id/maintenance',
  operationId: 'setMaintenance',
  summary: 'Start or end maintenance',
  tag,
  caller,
  params: z.object({ id: z.string().min(1).max(32) }),
  body: z.object({
    on: z.boolean(),
    opensAt: z
      .number()
      .int()
      .positive()
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .describe('epoch ms, in the future; only with on: true'),
  }),
  responses: {
    200: z.object({ id: z.string(), on: z.boolean(), opensAt: z.int().optional() }),
  },
  errors: { 404: ['NOT_FOUND'] },
});

export const searchUsers = endpoint({
  method: 'get',
  path: '/ops/users',
  operationId: 'searchUsers',
  summary: 'Find users by id, account (its beginning) or phone (its digits)',
  tag,
  caller,
  query: z.object({
    q: freeText().trim().min(1, 'q: an id, an account or a phone number').max(64),
  }),
  responses: { 200: z.object({ items: z.array(opsUserDto) }) },
});

export const opsUser = endpoint({
  method: 'get',
  path: '/ops/users/:id',
  operationId: 'opsUser',
  summary: "A user's profile, balances, latest orders, deposits, withdrawals and sessions",
  tag,
  caller,
  params: userIdParam,
  responses: { 200: opsUserProfileDto },
  errors: { 404: ['NOT_FOUND'] },
});

export const opsReviewContext = endpoint({
  method: 'get',
  path: '/ops/users/:id/review-context',
  operationId: 'opsReviewContext',
  summary:
    "What a reviewer weighs beside a deposit or withdrawal: the user's identity state, balances, recent deposits, withdrawals and ledger entries. A reviewer gets it only while the user has a deposit, withdrawal or identity check pending (404 otherwise, as for an unknown user); roles that read any profile, always",
  tag,
  caller,
  params: userIdParam,
  responses: { 200: opsReviewContextDto },
  errors: { 404: ['NOT_FOUND'] },
});

export const revokeUserSessions = endpoint({
  method: 'delete',
  path: '/ops/users/:id/sessions',
  operationId: 'revokeUserSessions',
  summary: 'End every session of a user (their sockets too): they log in again',
  tag,
  caller,
  params: userIdParam,
  responses: { 200: z.object({ revoked: z.int() }) },
  errors: { 404: ['NOT_FOUND'] },
});

export const endUserSession = endpoint({
  method: 'delete',
  path: '/ops/users/:id/sessions/:session',
  operationId: 'endUserSession',
  summary: 'End one session of a user (its sockets too, at once), by the id the profile shows',
  tag,
  caller,
  params: userIdParam.extend({
    session: z.string().regex(/^[0-9a-f]{12}$/, 'a session id (12 hex characters)'),
  }),
  responses: { 204: null },
  errors: { 404: ['NOT_FOUND'] },
});

/**
 * The support reset of two-factor sign-in (docs/OPERATIONS.md, Two-factor: a user who lost the
 * authenticator): asked for by one named operator with a reason and a ticket, approved by
 * another, an admin; effective TWO_FACTOR_RESET_DELAY_HOURS after the approval; the user is told
 * and can call it off. Each answers the user's two-factor state as the profile shows it.
 */
const resetPath = '/ops/users/:id/two-factor-reset';

export const requestTwoFactorReset = endpoint({
  method: 'post',
  path: resetPath,
  operationId: 'requestTwoFactorReset',
  summary:
    "Ask for a reset of a user's two-factor sign-in (they lost the authenticator and the recovery codes): a second operator approves it",
  tag,
  caller,
  params: userIdParam,
  body: z.object({
    reason: freeText()
      .trim()
      .min(1, 'reason is required')
      .max(500)
      .describe('what support checked (kept in the audit log)'),
    ticket: freeText()
      .trim()
      .min(1, 'ticket is required')
      .max(64)
      .describe('the support ticket the user asked on'),
  }),
  responses: { 200: opsTwoFactorDto },
  errors: {
    404: ['NOT_FOUND'],
    403: ['TWO_FACTOR_RESET_NAMED_OPERATOR'],
    409: ['TWO_FACTOR_OFF', 'TWO_FACTOR_RESET_PENDING'],
  },
});

export const approveTwoFactorReset = endpoint({
  method: 'post',
  path: `${resetPath}/approve`,
  operationId: 'approveTwoFactorReset',
  summary:
    'Approve a pending two-factor reset (an admin other than who asked): it takes effect TWO_FACTOR_RESET_DELAY_HOURS later, and the user is told when',
  tag,
  caller,
  params: userIdParam,
  responses: { 200: opsTwoFactorDto },
  errors: {
    404: ['NOT_FOUND'],
    403: ['TWO_FACTOR_RESET_NAMED_OPERATOR', 'TWO_FACTOR_RESET_SAME_OPERATOR'],
    409: ['TWO_FACTOR_RESET_NONE'],
  },
});

export const cancelUserTwoFactorReset = endpoint({
  method: 'delete',
  path: resetPath,
  operationId: 'cancelUserTwoFactorReset',
  summary: "Call a user's pending two-factor reset off",
  tag,
  caller,
  params: userIdParam,
  responses: { 200: opsTwoFactorDto },
  errors: { 404: ['NOT_FOUND'], 409: ['TWO_FACTOR_RESET_NONE'] },
});

export const opsDashboard = endpoint({
  method: 'get',
  path: '/ops/dashboard',
  operationId: 'opsDashboard',
  summary:
    "Pending reviews, open real exposure per product and direction, today's house result, and the processes' live figures (sockets per gateway, ticks per second, settlement lag)",
  tag,
  caller,
  responses: { 200: opsDashboardDto },
});
