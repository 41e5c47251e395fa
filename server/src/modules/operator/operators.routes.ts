import { Router, type Request } from 'express';
import * as endpoints from '@shared/operators/endpoints';
import { serve } from '@server/platform/http/serve';
import { noteAudit, operatorOf, type OperatorGate } from '@server/platform/http/operator-gate';
import type { OperatorsService } from './operators.service';

const clientIp = (req: Request) => req.ip ?? 'unknown';

/**
 * /api/ops/session, /api/ops/me, /api/ops/operators, /api/ops/audit, /api/ops/access-log
 * (shared/src/operators/endpoints.ts): named operators sign in, admins manage them and read the
 * audit and access logs. The gate decides which roles reach each.
 */
export function operatorsRoutes(operators: OperatorsService, gate: OperatorGate): Router {
  const r = Router();
  // The service writes the audit line of every attempt, failed ones and lock-outs too.
  serve(r, endpoints.operatorLogin, undefined, ({ body }, { req }) =>
    operators.login(body, clientIp(req)),
  );
  serve(r, endpoints.operatorLogout, gate('self'), (_input, { res }) =>
    operators.logout(operatorOf(res.locals)),
  );
  serve(r, endpoints.operatorMe, gate('self'), (_input, { res }) => {
    const o = operatorOf(res.locals);
    return Promise.resolve({ id: o.id === null ? null : String(o.id), name: o.name, role: o.role });
  });
  serve(r, endpoints.createOperator, gate('admin'), async ({ body }, { res }) => {
    const created = await operators.create(body);
    // The audit keeps who was made what, never the secrets.
    noteAudit(res, { target: `operator=${created.operator.id}`, after: created.operator });
    return created;
  });
  serve(r, endpoints.operators, gate('admin'), async () => ({ items: await operators.list() }));
  // The lifecycle of an operator (issue 33), each change audited by the gate with the state
  // before it. The last active admin can be neither disabled nor given another role.
  serve(r, endpoints.disableOperator, gate('admin'), async ({ params: { id } }, { res }) => {
    const { before, after } = await operators.disable(id);
    noteAudit(res, { target: `operator=${id}`, before: { disabled: before.disabled } });
    return after;
  });
  serve(r, endpoints.enableOperator, gate('admin'), async ({ params: { id } }, { res }) => {
    const { before, after } = await operators.enable(id);
    noteAudit(res, { target: `operator=${id}`, before: { disabled: before.disabled } });
    return after;
  });
  serve(r, endpoints.setOperatorRole, gate('admin'), async ({ params: { id }, body }, { res }) => {
    const { before, after } = await operators.setRole(id, body.role);
    noteAudit(res, { target: `operator=${id}`, before: { role: before.role } });
    return after;
  });
  serve(r, endpoints.endOperatorSessions, gate('admin'), async ({ params: { id } }, { res }) => {
    const revoked = await operators.endSessions(id);
    noteAudit(res, { target: `operator=${id}` });
    return { revoked };
  });
  serve(r, endpoints.auditLog, gate('admin'), ({ query }) => operators.audit(query));
  serve(r, endpoints.accessLog, gate('admin'), ({ query }) => operators.accessLog(query));
  return r;
}
