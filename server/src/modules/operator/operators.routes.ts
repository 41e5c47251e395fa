import { Router, type Request } from 'express';
import { z } from 'zod';
import { freeText } from '@shared/text';
import {
  accessLineDto,
  auditLineDto,
  newOperatorDto,
  operatorCallerDto,
  operatorDto,
  operatorListItemDto,
  operatorSessionDto,
  pageOf,
} from '@shared/dto';
import { newOperatorName } from '@shared/operator-names';
import { parseOrThrow } from '@server/platform/http/validate';
import { declare } from '@server/platform/http/route';
import {
  noteAudit,
  operatorOf,
  operatorRoles,
  type OperatorGate,
} from '@server/platform/http/operator-gate';
import type { OperatorsService } from './operators.service';

const newOperatorBody = z.object({ name: newOperatorName, role: z.enum(operatorRoles) });
const operatorIdParam = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const disableBody = z.object({
  reason: freeText().trim().min(1, 'reason is required').max(500).describe('kept in the audit log'),
});
const roleBody = z.object({
  role: z.enum(operatorRoles),
  reason: freeText().trim().min(1).max(500).optional().describe('kept in the audit log'),
});
const accessQuery = z.object({
  operator: freeText().trim().min(1).max(64).optional().describe("an operator's name"),
  user: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, 'cursor is not valid')
    .transform(Number)
    .optional(),
});
const operatorLoginBody = z.object({
  name: freeText().trim().min(1).max(64),
  password: z.string().min(1).max(200),
  code: z.string().regex(/^\d{6}$/, 'code: the six digits of the authenticator app'),
});
const auditQuery = z.object({
  operator: freeText().trim().min(1).max(64).optional(),
  action: freeText().trim().min(1).max(100).optional(),
  target: freeText().trim().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, 'cursor is not valid')
    .optional(),
});

const clientIp = (req: Request) => req.ip ?? 'unknown';

/**
 * /api/ops/session, /api/ops/me, /api/ops/operators, /api/ops/audit, /api/ops/access-log: named
 * operators sign in (password and TOTP code), admins create, disable, enable and re-role them and
 * end their sessions, and read the audit log and the access log.
 */
export function operatorsRoutes(operators: OperatorsService, gate: OperatorGate): Router {
  const r = Router();
  const tag = 'Operators';
  declare(
    r,
    {
      method: 'post',
      path: '/ops/session',
      operationId: 'operatorLogin',
      summary: "Sign in as a named operator: name, password and the authenticator's code",
      tag,
      body: operatorLoginBody,
      responses: { 200: operatorSessionDto },
      errors: { 401: ['BAD_CREDENTIALS'], 429: ['TOO_MANY_ATTEMPTS'] },
    },
    // The service writes the audit line of every attempt, failed ones and lock-outs too.
    async (req, res) => {
      res.json(await operators.login(parseOrThrow(operatorLoginBody, req.body), clientIp(req)));
    },
  );
  declare(
    r,
    {
      method: 'delete',
      path: '/ops/session',
      operationId: 'operatorLogout',
      summary: "End the operator's session",
      tag,
      auth: gate('self'),
      responses: { 204: null },
    },
    async (_req, res) => {
      await operators.logout(operatorOf(res.locals));
      res.status(204).end();
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/ops/me',
      operationId: 'operatorMe',
      summary: 'Who the bearer is, and their role',
      tag,
      auth: gate('self'),
      responses: { 200: operatorCallerDto },
    },
    (_req, res) => {
      const o = operatorOf(res.locals);
      res.json({ id: o.id === null ? null : String(o.id), name: o.name, role: o.role });
    },
  );
  declare(
    r,
    {
      method: 'post',
      path: '/ops/operators',
      operationId: 'createOperator',
      summary: 'Create a named operator; the password and TOTP secret are shown once',
      tag,
      auth: gate('admin'),
      body: newOperatorBody,
      responses: { 201: newOperatorDto },
      errors: { 409: ['ACCOUNT_TAKEN'] },
    },
    async (req, res) => {
      const created = await operators.create(parseOrThrow(newOperatorBody, req.body));
      // The audit keeps who was made what, never the secrets.
      noteAudit(res, { target: `operator=${created.operator.id}`, after: created.operator });
      res.status(201).json(created);
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/ops/operators',
      operationId: 'operators',
      summary: 'The named operators',
      tag,
      auth: gate('admin'),
      responses: { 200: z.object({ items: z.array(operatorListItemDto) }) },
    },
    async (_req, res) => {
      res.json({ items: await operators.list() });
    },
  );
  // The lifecycle of an operator (issue 33), each change audited by the gate with the state
  // before it. The last active admin can be neither disabled nor given another role.
  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const)
    declare(
      r,
      {
        method: 'post',
        path: `/ops/operators/:id/${action}`,
        operationId: `${action}Operator`,
        summary: disabled
          ? 'Disable an operator: their sessions end at once (their next request is 401), and they cannot sign in'
          : 'Enable a disabled operator: they sign in again (their old sessions stay ended)',
        tag,
        auth: gate('admin'),
        params: operatorIdParam,
        body: disableBody,
        responses: { 200: operatorDto },
        errors: { 404: ['NOT_FOUND'], ...(disabled ? { 409: ['LAST_ADMIN' as const] } : {}) },
      },
      async (req, res) => {
        const { id } = parseOrThrow(operatorIdParam, req.params);
        parseOrThrow(disableBody, req.body);
        const { before, after } = await (disabled ? operators.disable(id) : operators.enable(id));
        noteAudit(res, { target: `operator=${id}`, before: { disabled: before.disabled } });
        res.json(after);
      },
    );
  declare(
    r,
    {
      method: 'post',
      path: '/ops/operators/:id/role',
      operationId: 'setOperatorRole',
      summary: 'Give an operator another role, from their next request on',
      tag,
      auth: gate('admin'),
      params: operatorIdParam,
      body: roleBody,
      responses: { 200: operatorDto },
      errors: { 404: ['NOT_FOUND'], 409: ['LAST_ADMIN'] },
    },
    async (req, res) => {
      const { id } = parseOrThrow(operatorIdParam, req.params);
      const { role } = parseOrThrow(roleBody, req.body);
      const { before, after } = await operators.setRole(id, role);
      noteAudit(res, { target: `operator=${id}`, before: { role: before.role } });
      res.json(after);
    },
  );
  declare(
    r,
    {
      method: 'delete',
      path: '/ops/operators/:id/sessions',
      operationId: 'endOperatorSessions',
      summary: 'End every session of an operator: they sign in again',
      tag,
      auth: gate('admin'),
      params: operatorIdParam,
      responses: { 200: z.object({ revoked: z.int() }) },
      errors: { 404: ['NOT_FOUND'] },
    },
    async (req, res) => {
      const { id } = parseOrThrow(operatorIdParam, req.params);
      const revoked = await operators.endSessions(id);
      noteAudit(res, { target: `operator=${id}` });
      res.json({ revoked });
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/ops/audit',
      operationId: 'auditLog',
      summary: 'The audit log of operator actions, newest first, filtered',
      tag,
      auth: gate('admin'),
      query: auditQuery,
      responses: { 200: pageOf(auditLineDto) },
    },
    async (req, res) => {
      res.json(await operators.audit(parseOrThrow(auditQuery, req.query)));
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/ops/access-log',
      operationId: 'accessLog',
      summary:
        "The access log of operators' reads of personal data (profiles, review contexts, uploads), newest first, by operator and by user",
      tag,
      auth: gate('admin'),
      query: accessQuery,
      responses: { 200: pageOf(accessLineDto) },
    },
    async (req, res) => {
      res.json(await operators.accessLog(parseOrThrow(accessQuery, req.query)));
    },
  );
  return r;
}
