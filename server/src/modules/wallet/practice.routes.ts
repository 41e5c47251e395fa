import { Router } from 'express';
import { z } from 'zod';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { declare } from '@server/platform/http/route';
import { rateLimited } from '@server/platform/http/errors';
import type { AuthService } from '../auth/auth.service';
import type { BucketSpec, TokenBuckets } from '@server/platform/token-bucket';
import type { PracticeService } from './practice';

/**
 * What a user may reset the practice balance: three at once, then one every 10 s. A reset is a
 * ledger transfer like a placement; nobody needs more (DECISIONS.md, Public market reads and order throttles).
 */
export const practiceResetLimit: BucketSpec = { burst: 3, perSecond: 0.1 };

/**
 * /api/practice/reset: the practice balance back to PRACTICE_BALANCE, behind the user's reset
 * throttle (`throttle`, practiceResetLimit) before any database work.
 */
export function practiceRoutes(
  practice: PracticeService,
  auth: AuthService,
  throttle: TokenBuckets | null = null,
): Router {
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
      errors: { 409: ['PRACTICE_ORDERS_OPEN'], 429: ['RATE_LIMITED'] },
    },
    async (_req, res) => {
      const userId = sessionOf(res.locals).userId;
      const taken = throttle ? await throttle.take(String(userId)) : null;
      if (taken && !taken.ok)
        throw rateLimited('Too many practice resets; try again later', taken.retryAfterMs);
      res.json(await practice.reset(userId));
    },
  );
  return r;
}
