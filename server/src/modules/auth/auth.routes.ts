import { Router, type Request } from 'express';
import {
  changePasswordBody,
  changeTradePasswordBody,
  loginBody,
  registerBody,
  registerCheckBody,
} from '@shared/accounts';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import type { AuthService } from './auth.service';

/** The client's address (throttles): X-Forwarded-For only from proxies TRUST_PROXY trusts. */
const clientIp = (req: Request) => req.ip ?? 'unknown';

/** /api/auth/* and /api/me*: thin: validate → service → present. */
export function authRoutes(auth: AuthService): Router {
  const r = Router();
  const user = requireUser(auth);

  r.post('/auth/register/check', async (req, res) => {
    await auth.checkRegistration(parseOrThrow(registerCheckBody, req.body), clientIp(req));
    res.json({ ok: true });
  });
  r.post('/auth/register', async (req, res) => {
    const body = parseOrThrow(registerBody, req.body);
    res.status(201).json({ user: await auth.register(body, clientIp(req)) });
  });
  r.post('/auth/login', async (req, res) => {
    res.json(await auth.login(parseOrThrow(loginBody, req.body), clientIp(req)));
  });
  r.post('/auth/logout', user, async (_req, res) => {
    await auth.logout(sessionOf(res.locals));
    res.status(204).end();
  });
  r.get('/me', user, async (_req, res) => {
    res.json(await auth.me(sessionOf(res.locals).userId));
  });
  r.post('/me/password', user, async (req, res) => {
    await auth.changePassword(
      sessionOf(res.locals),
      'login',
      parseOrThrow(changePasswordBody, req.body),
    );
    res.status(204).end();
  });
  r.post('/me/trade-password', user, async (req, res) => {
    await auth.changePassword(
      sessionOf(res.locals),
      'trade',
      parseOrThrow(changeTradePasswordBody, req.body),
    );
    res.status(204).end();
  });
  return r;
}
