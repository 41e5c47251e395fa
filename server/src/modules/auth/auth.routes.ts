import { Router, type Request } from 'express';
import { z } from 'zod';
import {
  changePasswordBody,
  changeTradePasswordBody,
  loginBody,
  registerBody,
  registerCheckBody,
} from '@shared/accounts';
import { loginAnswerDto, registeredDto, userDto } from '@shared/dto';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { declare } from '@server/platform/http/route';
import type { AuthService } from './auth.service';

/** The client's address (throttles): X-Forwarded-For only from proxies TRUST_PROXY trusts. */
const clientIp = (req: Request) => req.ip ?? 'unknown';

/** /api/auth/* and /api/me*: thin: validate → service → present. */
export function authRoutes(auth: AuthService): Router {
  const r = Router();
  const user = requireUser(auth);
  const userSigningOut = requireUser(auth, { allowFrozen: true });
  const tag = 'Accounts';

  declare(
    r,
    {
      method: 'post',
      path: '/auth/register/check',
      operationId: 'registerCheck',
      summary: 'Check step 1 of registration',
      tag,
      body: registerCheckBody,
      responses: { 200: z.object({ ok: z.literal(true) }) },
      errors: { 400: ['INVITE_INVALID'], 409: ['ACCOUNT_TAKEN'], 429: ['RATE_LIMITED'] },
    },
    async (req, res) => {
      await auth.checkRegistration(parseOrThrow(registerCheckBody, req.body), clientIp(req));
      res.json({ ok: true });
    },
  );
  declare(
    r,
    {
      method: 'post',
      path: '/auth/register',
      operationId: 'register',
      summary: 'Open an account',
      tag,
      body: registerBody,
      responses: { 201: registeredDto },
      errors: {
        400: [
          'TERMS_NOT_ACCEPTED',
          'INVITE_INVALID',
          'PASSWORD_MISMATCH',
          'TRADE_PASSWORD_MISMATCH',
        ],
        409: ['ACCOUNT_TAKEN'],
        429: ['RATE_LIMITED'],
      },
    },
    async (req, res) => {
      const body = parseOrThrow(registerBody, req.body);
      res.status(201).json({ user: await auth.register(body, clientIp(req)) });
    },
  );
  declare(
    r,
    {
      method: 'post',
      path: '/auth/login',
      operationId: 'login',
      summary: 'Log in: a session token',
      tag,
      body: loginBody,
      responses: { 200: loginAnswerDto },
      errors: { 401: ['BAD_CREDENTIALS'], 403: ['ACCOUNT_FROZEN'], 429: ['TOO_MANY_ATTEMPTS'] },
    },
    async (req, res) => {
      res.json(await auth.login(parseOrThrow(loginBody, req.body), clientIp(req)));
    },
  );
  declare(
    r,
    {
      method: 'post',
      path: '/auth/logout',
      operationId: 'logout',
      summary: 'End the session',
      tag,
      auth: userSigningOut,
      responses: { 204: null },
    },
    async (_req, res) => {
      await auth.logout(sessionOf(res.locals));
      res.status(204).end();
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/me',
      operationId: 'me',
      summary: 'The signed-in user',
      tag,
      auth: user,
      responses: { 200: userDto },
    },
    async (_req, res) => {
      res.json(await auth.me(sessionOf(res.locals).userId));
    },
  );
  declare(
    r,
    {
      method: 'post',
      path: '/me/password',
      operationId: 'changePassword',
      summary: 'Change the login password',
      tag,
      auth: user,
      body: changePasswordBody,
      responses: { 204: null },
      errors: { 400: ['PASSWORD_MISMATCH'], 403: ['WRONG_PASSWORD'], 429: ['TOO_MANY_ATTEMPTS'] },
    },
    async (req, res) => {
      const body = parseOrThrow(changePasswordBody, req.body);
      await auth.changePassword(sessionOf(res.locals), 'login', body);
      res.status(204).end();
    },
  );
  declare(
    r,
    {
      method: 'post',
      path: '/me/trade-password',
      operationId: 'changeTradePassword',
      summary: 'Change the transaction password',
      tag,
      auth: user,
      body: changeTradePasswordBody,
      responses: { 204: null },
      errors: {
        400: ['TRADE_PASSWORD_MISMATCH'],
        403: ['WRONG_TRADE_PASSWORD'],
        429: ['TOO_MANY_ATTEMPTS'],
      },
    },
    async (req, res) => {
      const body = parseOrThrow(changeTradePasswordBody, req.body);
      await auth.changePassword(sessionOf(res.locals), 'trade', body);
      res.status(204).end();
    },
  );
  return r;
}
