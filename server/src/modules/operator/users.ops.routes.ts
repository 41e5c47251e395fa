import { Router } from 'express';
import * as endpoints from '@shared/accounts/ops.endpoints';
import { dayStart } from '@server/platform/clock';
import { serve } from '@server/platform/http/serve';
import { notFound } from '@server/platform/http/errors';
import {
  noteAudit,
  operatorOf,
  readsAnyUser,
  type AccessLogWriter,
  type OperatorGate,
} from '@server/platform/http/operator-gate';
import type { LiveFigures } from '@server/platform/process-reports';
import type { AuthService } from '../auth/auth.service';
import type { TwoFactorResets } from '../auth/two-factor.reset';
import type { KycService } from '../kyc/kyc.service';
import type { OrdersService } from '../orders/orders.service';
import type { WalletService } from '../wallet/wallet.service';

/**
 * /api/ops/users (support: find a user, see their account at a glance with their two-factor
 * state, end their sessions; a reviewer: the context of a user under review) and
 * /api/ops/dashboard (admin: the house's live
 * real-money position and the review backlog). Every profile and review context an operator is
 * shown is recorded in the access log before it is sent (issue 33).
 */
export function usersOpsRoutes(deps: {
  auth: AuthService;
  /** Support's view of a user's two-factor (two-factor.ops.routes.ts changes it). */
  twoFactor: TwoFactorResets;
  wallet: WalletService;
  orders: OrdersService;
  kyc: KycService;
  gate: OperatorGate;
  accessLog: AccessLogWriter;
  /** The processes' live figures (platform/process-reports.ts). */
  live: { figures: () => LiveFigures };
  /** PLATFORM_UTC_OFFSET_MINUTES: where "today" starts. */
  offsetMinutes: number;
  now?: () => number;
}): Router {
  const { auth, twoFactor, wallet, orders, kyc, gate, accessLog } = deps;
  /** Whether the user has a deposit, withdrawal or identity check in the review queues. */
  const underReview = async (userId: number) =>
    (
      await Promise.all([
        wallet.deposits.pendingCount(userId),
        wallet.withdrawals.pendingCount(userId),
        kyc.pendingCount(userId),
      ])
    ).some((n) => n > 0);
  const now = deps.now ?? Date.now;
  const r = Router();
  serve(r, endpoints.searchUsers, gate('support'), async ({ query }) => ({
    items: await auth.searchUsers(query.q),
  }));
  serve(r, endpoints.opsUser, gate('support'), async ({ params: { id } }, { req, res }) => {
    const user = await auth.opsUser(id);
    await accessLog.recordRead({
      operator: operatorOf(res.locals),
      kind: 'profile',
      userId: id,
      address: req.ip ?? '',
    });
    const [balances, orderPage, deposits, withdrawals, ledger, sessions, twoFactorState] =
      await Promise.all([
        wallet.summary(id),
        orders.list(id, { mode: 'real', limit: 20 }),
        wallet.deposits.list(id, { limit: 10 }),
        wallet.withdrawals.list(id, { limit: 10 }),
        wallet.fundRecords(id, { limit: 20 }),
        auth.sessionsOf(id),
        twoFactor.opsState(id),
      ]);
    return {
      user,
      balances,
      orders: orderPage.items,
      deposits: deposits.items,
      withdrawals: withdrawals.items,
      ledger: ledger.items,
      sessions,
      twoFactor: twoFactorState,
    };
  });
  serve(
    r,
    endpoints.opsReviewContext,
    gate('reviews'),
    async ({ params: { id } }, { req, res }) => {
      const operator = operatorOf(res.locals);
      // A reviewer reads a user's data through their work only: 404 alike for a user with
      // nothing pending and an unknown one, so probing ids tells a reviewer nothing.
      if (!readsAnyUser(operator) && !(await underReview(id))) throw notFound('No such user');
      const user = await auth.opsUser(id);
      await accessLog.recordRead({
        operator,
        kind: 'review_context',
        userId: id,
        address: req.ip ?? '',
      });
      const [balances, deposits, withdrawals, ledger] = await Promise.all([
        wallet.summary(id),
        wallet.deposits.list(id, { limit: 10 }),
        wallet.withdrawals.list(id, { limit: 5 }),
        wallet.fundRecords(id, { limit: 10 }),
      ]);
      return {
        user,
        balances,
        deposits: deposits.items,
        withdrawals: withdrawals.items,
        ledger: ledger.items,
      };
    },
  );
  serve(r, endpoints.revokeUserSessions, gate('support'), async ({ params: { id } }, { res }) => {
    const revoked = await auth.revokeSessions(id);
    noteAudit(res, { target: `user=${id}` });
    return { revoked };
  });
  serve(r, endpoints.opsDashboard, gate('admin'), async () => {
    const [deposits, withdrawals, identity, figures] = await Promise.all([
      wallet.deposits.pendingCount(),
      wallet.withdrawals.pendingCount(),
      kyc.pendingCount(),
      orders.dashboard(new Date(dayStart(now(), deps.offsetMinutes))),
    ]);
    return {
      pending: { deposits, withdrawals, kyc: identity },
      ...figures,
      live: deps.live.figures(),
    };
  });
  return r;
}
