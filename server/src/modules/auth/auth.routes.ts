import { Router, type Request } from 'express';
import * as endpoints from '@shared/accounts.endpoints';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { serve } from '@server/platform/http/serve';
import type { AuthService } from './auth.service';

/** The client's address (throttles): X-Forwarded-For only from proxies TRUST_PROXY trusts. */
const clientIp = (req: Request) => req.ip ?? 'unknown';

/** /api/auth/* and /api/me* (shared/src/accounts.endpoints.ts): thin: validate → service → present. */
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
  serve(r, endpoints.login, undefined, ({ body }, { req }) => auth.login(body, clientIp(req)));
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
  return r;
}
