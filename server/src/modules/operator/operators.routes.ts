import { Router, type Request } from 'express';
import { z } from 'zod';
import { freeText } from '@shared/text';
import {
  auditLineDto,
  newOperatorDto,
  operatorCallerDto,
  operatorDto,
  operatorSessionDto,
  pageOf,
} from '@shared/dto';
import { parseOrThrow } from '@server/platform/http/validate';
import { declare } from '@server/platform/http/route';
import {
  noteAudit,
  operatorOf,
  operatorRoles,
  type OperatorGate,
} from '@server/platform/http/operator-gate';
import type { OperatorsService } from './operators.service';

const operatorName = z
  .string()
  .trim()
  .regex(/^[\p{L}\p{N}._-]{3,32}$/u, 'name: 3 to 32 letters, digits, dots, dashes or underscores');
const newOperatorBody = z.object({ name: operatorName, role: z.enum(operatorRoles) });
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
 * /api/ops/session, /api/ops/me, /api/ops/operators, /api/ops/audit: named operators sign in
 * (password and TOTP code), admins create them, and the audit log is read.
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
    async (req, res) => {
      const answer = await operators.login(
        parseOrThrow(operatorLoginBody, req.body),
        clientIp(req),
      );
      const { operator } = answer;
      await operators.record({
        operator: {
          id: Number(operator.id),
          name: operator.name,
          role: operator.role,
          tokenHash: null,
        },
        action: 'POST /api/ops/session',
        target: `operator=${operator.id}`,
        before: null,
        after: { signedIn: true },
        reason: null,
        address: clientIp(req),
        status: 200,
      });
      res.json(answer);
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
      responses: { 200: z.object({ items: z.array(operatorDto) }) },
    },
    async (_req, res) => {
      res.json({ items: await operators.list() });
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
  return r;
}
