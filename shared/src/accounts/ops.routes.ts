import { route, type AnswerOf } from '../contract/endpoint';
import type * as ops from './ops.endpoints';

/** The console's endpoints about users and the platform, as it calls them (no zod at run time). */
export const setCreditScore = route<typeof ops.setCreditScore>(
  'post',
  '/ops/users/:id/credit-score',
);
export const freezeUser = route<typeof ops.freezeUser>('post', '/ops/users/:id/freeze');
export const unfreezeUser = route<typeof ops.unfreezeUser>('post', '/ops/users/:id/unfreeze');
export const setMaintenance = route<typeof ops.setMaintenance>(
  'post',
  '/ops/products/:id/maintenance',
);
export const searchUsers = route<typeof ops.searchUsers>('get', '/ops/users');
export const opsUser = route<typeof ops.opsUser>('get', '/ops/users/:id');
export const opsReviewContext = route<typeof ops.opsReviewContext>(
  'get',
  '/ops/users/:id/review-context',
);
export const revokeUserSessions = route<typeof ops.revokeUserSessions>(
  'delete',
  '/ops/users/:id/sessions',
);
export const endUserSession = route<typeof ops.endUserSession>(
  'delete',
  '/ops/users/:id/sessions/:session',
);
export const requestTwoFactorReset = route<typeof ops.requestTwoFactorReset>(
  'post',
  '/ops/users/:id/two-factor-reset',
);
export const approveTwoFactorReset = route<typeof ops.approveTwoFactorReset>(
  'post',
  '/ops/users/:id/two-factor-reset/approve',
);
export const cancelUserTwoFactorReset = route<typeof ops.cancelUserTwoFactorReset>(
  'delete',
  '/ops/users/:id/two-factor-reset',
);
export const opsDashboard = route<typeof ops.opsDashboard>('get', '/ops/dashboard');

/** The answers' shapes the console reads, from the endpoints' schemas. */
export type OpsUserProfile = AnswerOf<typeof ops.opsUser>;
export type OpsReviewContext = AnswerOf<typeof ops.opsReviewContext>;
export type LedgerEntry = OpsReviewContext['ledger'][number];
export type OpsDashboard = AnswerOf<typeof ops.opsDashboard>;
export type OpsTwoFactor = OpsUserProfile['twoFactor'];
