import { Router } from 'express';
import { resetPractice } from '@shared/wallet/endpoints';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { serve } from '@server/platform/http/serve';
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
  serve(r, resetPractice, requireUser(auth), async (_input, { res }) => {
    const userId = sessionOf(res.locals).userId;
    const taken = throttle ? await throttle.take(String(userId)) : null;
    if (taken && !taken.ok)
      throw rateLimited('Too many practice resets; try again later', taken.retryAfterMs);
    return practice.reset(userId);
  });
  return r;
}
