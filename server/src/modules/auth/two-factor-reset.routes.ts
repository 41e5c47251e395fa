import { Router } from 'express';
import * as security from '@shared/security/endpoints';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { serve } from '@server/platform/http/serve';
import type { AuthService } from './auth.service';
import type { TwoFactorResets } from './two-factor.reset';

/**
 * /api/security/two-factor/reset: the user sees a pending support reset of their two-factor
 * sign-in and calls it off while signed in (docs/OPERATIONS.md).
 */
export function twoFactorResetRoutes(auth: AuthService, resets: TwoFactorResets): Router {
  const r = Router();
  const user = requireUser(auth);
  serve(r, security.twoFactorReset, user, (_input, { res }) =>
    resets.userPending(sessionOf(res.locals).userId),
  );
  serve(r, security.cancelTwoFactorReset, user, (_input, { res }) =>
    resets.userCancel(sessionOf(res.locals).userId),
  );
  return r;
}
