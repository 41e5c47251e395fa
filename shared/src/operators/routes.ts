import { route, type AnswerOf } from '../contract/endpoint';
import type * as ops from './endpoints';

/** The operators' endpoints as the console calls them (no zod at run time). */
export const operatorLogin = route<typeof ops.operatorLogin>('post', '/ops/session');
export const operatorLogout = route<typeof ops.operatorLogout>('delete', '/ops/session');
export const operatorMe = route<typeof ops.operatorMe>('get', '/ops/me');
export const createOperator = route<typeof ops.createOperator>('post', '/ops/operators');
export const operators = route<typeof ops.operators>('get', '/ops/operators');
export const disableOperator = route<typeof ops.disableOperator>(
  'post',
  '/ops/operators/:id/disable',
);
export const enableOperator = route<typeof ops.enableOperator>('post', '/ops/operators/:id/enable');
export const setOperatorRole = route<typeof ops.setOperatorRole>('post', '/ops/operators/:id/role');
export const endOperatorSessions = route<typeof ops.endOperatorSessions>(
  'delete',
  '/ops/operators/:id/sessions',
);
export const auditLog = route<typeof ops.auditLog>('get', '/ops/audit');
export const accessLog = route<typeof ops.accessLog>('get', '/ops/access-log');

/** The answers' shapes the console reads, from the endpoints' schemas. */
export type Operator = AnswerOf<typeof ops.setOperatorRole>;
export type OperatorListItem = AnswerOf<typeof ops.operators>['items'][number];
export type NewOperator = AnswerOf<typeof ops.createOperator>;
export type OperatorCaller = AnswerOf<typeof ops.operatorMe>;
export type AuditLine = AnswerOf<typeof ops.auditLog>['items'][number];
