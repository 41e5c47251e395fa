import { Router } from 'express';
import { z } from 'zod';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { declare } from '@server/platform/http/route';
import type { AuthService } from '../auth/auth.service';
import type { PracticeService } from './practice';

/** /api/practice/reset: the practice balance back to PRACTICE_BALANCE. */
export function practiceRoutes(practice: PracticeService, auth: AuthService): Router {
  const r = Router();
  declare(
    r,
    {
      method: 'post',
      path: '/practice/reset',
      operationId: 'resetPractice',
      summary: 'Set the practice balance back to PRACTICE_BALANCE (its own ledger transfer)',
      tag: 'Wallet',
      auth: requireUser(auth),
      responses: { 200: z.object({ practiceAvailable: z.int() }) },
      errors: { 409: ['PRACTICE_ORDERS_OPEN'] },
    },
    async (_req, res) => {
      res.json(await practice.reset(sessionOf(res.locals).userId));
    },
  );
  return r;
}
