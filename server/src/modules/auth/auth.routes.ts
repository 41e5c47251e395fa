import { Router, type Request } from 'express';
import * as endpoints from '@shared/accounts/endpoints';
import * as security from '@shared/security/endpoints';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { serve } from '@server/platform/http/serve';
import type { AuthService } from './auth.service';

/** The client's address (throttles): X-Forwarded-For only from proxies TRUST_PROXY trusts. */
const clientIp = (req: Request) => req.ip ?? 'unknown';

/**
 * /api/auth/*, /api/me* and /api/security/* (shared/src/accounts/endpoints.ts,
 * shared/src/security/endpoints.ts): thin: validate → service → present.
 */
export function authRoutes(auth: AuthService): Router {
  const r = Router();
  const user = requireUser(auth);

  serve(r, endpoints.registerCheck, undefined, async ({ body }, { req }) => {
    await auth.checkRegistration(body, clientIp(req));
    return { ok: true } as const;
  });
  serve(r, endpoints.register, undefined, async ({ body }, { req }) => ({
    user: await auth.register(body, clientIp(req)),
  }));
  serve(r, endpoints.login, undefined, ({ body }, { req }) =>
    auth.login(body, clientIp(req), req.get('user-agent') ?? null),
  );
  // A frozen account may still sign out.
  serve(r, endpoints.logout, requireUser(auth, { allowFrozen: true }), (_input, { res }) =>
    auth.logout(sessionOf(res.locals)),
  );
  serve(r, endpoints.me, user, (_input, { res }) => auth.me(sessionOf(res.locals).userId));
  serve(r, endpoints.changePassword, user, ({ body }, { res }) =>
    auth.changePassword(sessionOf(res.locals), 'login', body),
  );
  serve(r, endpoints.changeTradePassword, user, ({ body }, { res }) =>
    auth.changePassword(sessionOf(res.locals), 'trade', body),
  );
  const userId = (locals: Record<string, unknown>) => sessionOf(locals).userId;
  serve(r, security.twoFactorState, user, (_input, { res }) =>
    auth.twoFactorState(userId(res.locals)),
  );
  serve(r, security.twoFactorEnrol, user, ({ body }, { res }) =>
    auth.enrolTwoFactor(userId(res.locals), body.tradePassword),
  );
  serve(r, security.twoFactorConfirm, user, ({ body }, { res }) =>
    auth.confirmTwoFactor(sessionOf(res.locals), body.code),
  );
  serve(r, security.twoFactorDisable, user, ({ body }, { res }) =>
    auth.disableTwoFactor(userId(res.locals), body.code),
  );
  serve(r, security.securitySessions, user, (_input, { res }) =>
    auth.securitySessions(sessionOf(res.locals)),
  );
  serve(r, security.endSession, user, ({ params }, { res }) =>
    auth.endSession(sessionOf(res.locals), params.id),
  );
  serve(r, security.endOtherSessions, user, (_input, { res }) =>
    auth.endOtherSessions(sessionOf(res.locals)),
  );
  serve(r, security.antiPhishing, user, (_input, { res }) => auth.antiPhishing(userId(res.locals)));
  serve(r, security.setAntiPhishing, user, ({ body }, { res }) =>
    auth.setAntiPhishing(userId(res.locals), body),
  );
  serve(r, security.signInPhrase, undefined, ({ body }, { req }) =>
    auth.signInPhrase(body, clientIp(req)),
  );
  serve(r, security.passwordReset, undefined, ({ body }, { req }) =>
    auth.resetPassword(body, clientIp(req)),
  );
  return r;
}
