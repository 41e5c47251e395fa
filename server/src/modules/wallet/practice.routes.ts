import { Router } from 'express';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import type { AuthService } from '../auth/auth.service';
import type { PracticeService } from './practice';

/** /api/practice/reset: the practice balance back to PRACTICE_BALANCE. */
export function practiceRoutes(practice: PracticeService, auth: AuthService): Router {
  const r = Router();
  r.post('/practice/reset', requireUser(auth), async (_req, res) => {
    res.json(await practice.reset(sessionOf(res.locals).userId));
  });
  return r;
}
