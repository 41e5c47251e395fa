import { Router } from 'express';
import { z } from 'zod';
import { opsDashboardDto, opsReviewContextDto, opsUserDto, opsUserProfileDto } from '@shared/dto';
import { freeText } from '@shared/text';
import { dayStart } from '@server/platform/clock';
import { parseOrThrow } from '@server/platform/http/validate';
import { declare } from '@server/platform/http/route';
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
import type { KycService } from '../kyc/kyc.service';
import type { OrdersService } from '../orders/orders.service';
import type { WalletService } from '../wallet/wallet.service';

const userIdParam = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const userSearchQuery = z.object({
  q: freeText().trim().min(1, 'q: an id, an account or a phone number').max(64),
});

/**
 * /api/ops/users (support: find a user, see their account at a glance, end their sessions; a
 * reviewer: the context of a user under review) and /api/ops/dashboard (admin: the house's live
 * real-money position and the review backlog). Every profile and review context an operator is
 * shown is recorded in the access log before it is sent (issue 33).
 */
export function usersOpsRoutes(deps: {
  auth: AuthService;
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
  const { auth, wallet, orders, kyc, gate, accessLog } = deps;
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
  const tag = 'Operators';
  declare(
    r,
    {
      method: 'get',
      path: '/ops/users',
      operationId: 'searchUsers',
      summary: 'Find users by id, account (its beginning) or phone (its digits)',
      tag,
      auth: gate('support'),
      query: userSearchQuery,
      responses: { 200: z.object({ items: z.array(opsUserDto) }) },
    },
    async (req, res) => {
      const { q } = parseOrThrow(userSearchQuery, req.query);
      res.json({ items: await auth.searchUsers(q) });
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/ops/users/:id',
      operationId: 'opsUser',
      summary: "A user's profile, balances, latest orders, deposits, withdrawals and sessions",
      tag,
      auth: gate('support'),
      params: userIdParam,
      responses: { 200: opsUserProfileDto },
      errors: { 404: ['NOT_FOUND'] },
    },
    async (req, res) => {
      const { id } = parseOrThrow(userIdParam, req.params);
      const user = await auth.opsUser(id);
      await accessLog.recordRead({
        operator: operatorOf(res.locals),
        kind: 'profile',
        userId: id,
        address: req.ip ?? '',
      });
      const [balances, orderPage, deposits, withdrawals, ledger, sessions] = await Promise.all([
        wallet.summary(id),
        orders.list(id, { mode: 'real', limit: 20 }),
        wallet.deposits.list(id, { limit: 10 }),
        wallet.withdrawals.list(id, { limit: 10 }),
        wallet.fundRecords(id, { limit: 20 }),
        auth.sessionsOf(id),
      ]);
      res.json({
        user,
        balances,
        orders: orderPage.items,
        deposits: deposits.items,
        withdrawals: withdrawals.items,
        ledger: ledger.items,
        sessions,
      });
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/ops/users/:id/review-context',
      operationId: 'opsReviewContext',
      summary:
        "What a reviewer weighs beside a deposit or withdrawal: the user's identity state, balances, recent deposits, withdrawals and ledger entries. A reviewer gets it only while the user has a deposit, withdrawal or identity check pending (404 otherwise, as for an unknown user); roles that read any profile, always",
      tag,
      auth: gate('reviews'),
      params: userIdParam,
      responses: { 200: opsReviewContextDto },
      errors: { 404: ['NOT_FOUND'] },
    },
    async (req, res) => {
      const { id } = parseOrThrow(userIdParam, req.params);
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
      res.json({
        user,
        balances,
        deposits: deposits.items,
        withdrawals: withdrawals.items,
        ledger: ledger.items,
      });
    },
  );
  declare(
    r,
    {
      method: 'delete',
      path: '/ops/users/:id/sessions',
      operationId: 'revokeUserSessions',
      summary: 'End every session of a user (their sockets too): they log in again',
      tag,
      auth: gate('support'),
      params: userIdParam,
      responses: { 200: z.object({ revoked: z.int() }) },
      errors: { 404: ['NOT_FOUND'] },
    },
    async (req, res) => {
      const { id } = parseOrThrow(userIdParam, req.params);
      const revoked = await auth.revokeSessions(id);
      noteAudit(res, { target: `user=${id}` });
      res.json({ revoked });
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/ops/dashboard',
      operationId: 'opsDashboard',
      summary:
        "Pending reviews, open real exposure per product and direction, today's house result, and the processes' live figures (sockets per gateway, ticks per second, settlement lag)",
      tag,
      auth: gate('admin'),
      responses: { 200: opsDashboardDto },
    },
    async (_req, res) => {
      const [deposits, withdrawals, identity, figures] = await Promise.all([
        wallet.deposits.pendingCount(),
        wallet.withdrawals.pendingCount(),
        kyc.pendingCount(),
        orders.dashboard(new Date(dayStart(now(), deps.offsetMinutes))),
      ]);
      res.json({
        pending: { deposits, withdrawals, kyc: identity },
        ...figures,
        live: deps.live.figures(),
      });
    },
  );
  return r;
}
