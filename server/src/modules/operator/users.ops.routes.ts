import { Router } from 'express';
import { z } from 'zod';
import { opsDashboardDto, opsReviewContextDto, opsUserDto, opsUserProfileDto } from '@shared/dto';
import { freeText } from '@shared/text';
import { dayStart } from '@server/platform/clock';
import { parseOrThrow } from '@server/platform/http/validate';
import { declare } from '@server/platform/http/route';
import { noteAudit, type OperatorGate } from '@server/platform/http/operator-gate';
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
 * /api/ops/users (support: find a user, see their account at a glance, end their sessions) and
 * /api/ops/dashboard (admin: the house's live real-money position and the review backlog).
 */
export function usersOpsRoutes(deps: {
  auth: AuthService;
  wallet: WalletService;
  orders: OrdersService;
  kyc: KycService;
  gate: OperatorGate;
  /** The processes' live figures (platform/process-reports.ts). */
  live: { figures: () => LiveFigures };
  /** PLATFORM_UTC_OFFSET_MINUTES: where "today" starts. */
  offsetMinutes: number;
  now?: () => number;
}): Router {
  const { auth, wallet, orders, kyc, gate } = deps;
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
        "What a reviewer weighs beside a deposit or withdrawal: the user's identity state, balances, recent deposits, withdrawals and ledger entries",
      tag,
      auth: gate('reviews'),
      params: userIdParam,
      responses: { 200: opsReviewContextDto },
      errors: { 404: ['NOT_FOUND'] },
    },
    async (req, res) => {
      const { id } = parseOrThrow(userIdParam, req.params);
      const user = await auth.opsUser(id);
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
