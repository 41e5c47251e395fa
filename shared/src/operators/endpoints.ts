import { z } from 'zod';
import { endpoint } from '../contract/endpoint';
import {
  accessLineDto,
  auditLineDto,
  newOperatorDto,
  operatorCallerDto,
  operatorDto,
  operatorListItemDto,
  operatorSessionDto,
  pageOf,
} from '../contract/answers';
import { newOperatorName, operatorRoles } from './names';
import { freeText } from '../text';

/**
 * The operators' own endpoints (docs/API.md, Operators), declared once: named operators sign in
 * (password and TOTP code), admins create, disable, enable and re-role them and end their
 * sessions, and read the audit log and the access log. Which roles reach each is the server's
 * gate's (operator-gate.ts), shown in the generated tables.
 */
const tag = 'Operators';
const caller = 'operator';

const operatorIdParam = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const reasonBody = z.object({
  reason: freeText().trim().min(1, 'reason is required').max(500).describe('kept in the audit log'),
});
const cursor = z.string().regex(/^\d{1,18}$/, 'cursor is not valid');

export const operatorLogin = endpoint({
  method: 'post',
  path: '/ops/session',
  operationId: 'operatorLogin',
  summary: "Sign in as a named operator: name, password and the authenticator's code",
  tag,
  body: z.object({
    name: freeText().trim().min(1).max(64),
    password: z.string().min(1).max(200),
    code: z.string().regex(/^\d{6}$/, 'code: the six digits of the authenticator app'),
  }),
  responses: { 200: operatorSessionDto },
  errors: { 401: ['BAD_CREDENTIALS'], 429: ['TOO_MANY_ATTEMPTS'] },
});

export const operatorLogout = endpoint({
  method: 'delete',
  path: '/ops/session',
  operationId: 'operatorLogout',
  summary: "End the operator's session",
  tag,
  caller,
  responses: { 204: null },
});

export const operatorMe = endpoint({
  method: 'get',
  path: '/ops/me',
  operationId: 'operatorMe',
  summary: 'Who the bearer is, and their role',
  tag,
  caller,
  responses: { 200: operatorCallerDto },
});

export const createOperator = endpoint({
  method: 'post',
  path: '/ops/operators',
  operationId: 'createOperator',
  summary: 'Create a named operator; the password and TOTP secret are shown once',
  tag,
  caller,
  body: z.object({ name: newOperatorName, role: z.enum(operatorRoles) }),
  responses: { 201: newOperatorDto },
  errors: { 409: ['ACCOUNT_TAKEN'] },
});

export const operators = endpoint({
  method: 'get',
  path: '/ops/operators',
  operationId: 'operators',
  summary: 'The named operators',
  tag,
  caller,
  responses: { 200: z.object({ items: z.array(operatorListItemDto) }) },
});

export const disableOperator = endpoint({
  method: 'post',
  path: '/ops/operators/:id/disable',
  operationId: 'disableOperator',
  summary:
    'Disable an operator: their sessions end at once (their next request is 401), and they cannot sign in',
  tag,
  caller,
  params: operatorIdParam,
  body: reasonBody,
  responses: { 200: operatorDto },
  errors: { 404: ['NOT_FOUND'], 409: ['LAST_ADMIN'] },
});

export const enableOperator = endpoint({
  method: 'post',
  path: '/ops/operators/:id/enable',
  operationId: 'enableOperator',
  summary: 'Enable a disabled operator: they sign in again (their old sessions stay ended)',
  tag,
  caller,
  params: operatorIdParam,
  body: reasonBody,
  responses: { 200: operatorDto },
  errors: { 404: ['NOT_FOUND'] },
});

export const setOperatorRole = endpoint({
  method: 'post',
  path: '/ops/operators/:id/role',
  operationId: 'setOperatorRole',
  summary: 'Give an operator another role, from their next request on',
  tag,
  caller,
  params: operatorIdParam,
  body: z.object({
    role: z.enum(operatorRoles),
    reason: freeText().trim().min(1).max(500).optional().describe('kept in the audit log'),
  }),
  responses: { 200: operatorDto },
  errors: { 404: ['NOT_FOUND'], 409: ['LAST_ADMIN'] },
});

export const endOperatorSessions = endpoint({
  method: 'delete',
  path: '/ops/operators/:id/sessions',
  operationId: 'endOperatorSessions',
  summary: 'End every session of an operator: they sign in again',
  tag,
  caller,
  params: operatorIdParam,
  responses: { 200: z.object({ revoked: z.int() }) },
  errors: { 404: ['NOT_FOUND'] },
});

export const auditLog = endpoint({
  method: 'get',
  path: '/ops/audit',
  operationId: 'auditLog',
  summary: 'The audit log of operator actions, newest first, filtered',
  tag,
  caller,
  query: z.object({
    operator: freeText().trim().min(1).max(64).optional(),
    action: freeText().trim().min(1).max(100).optional(),
    target: freeText().trim().min(1).max(100).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
    cursor: cursor.optional(),
  }),
  responses: { 200: pageOf(auditLineDto) },
});

export const accessLog = endpoint({
  method: 'get',
  path: '/ops/access-log',
  operationId: 'accessLog',
  summary:
    "The access log of operators' reads of personal data (profiles, review contexts, uploads), newest first, by operator and by user",
  tag,
  caller,
  query: z.object({
    operator: freeText().trim().min(1).max(64).optional().describe("an operator's name"),
    user: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
    cursor: cursor.transform(Number).optional(),
  }),
  responses: { 200: pageOf(accessLineDto) },
});
