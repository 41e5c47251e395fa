import type { RequestHandler } from 'express';
import { unauthenticated } from '@server/platform/http/errors';
import type { AuthService, SessionInfo } from './auth.service';

/** The bearer token of a request, or null. */
export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer ([A-Za-z0-9_-]{1,100})$/.exec(header ?? '');
  return m?.[1] ?? null;
}

/** 401 UNAUTHENTICATED unless the request carries a live session; puts it in `res.locals.session`. */
export function requireUser(auth: AuthService): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.headers.authorization);
    const session = token ? await auth.authenticate(token) : null;
    if (!session) throw unauthenticated();
    res.locals.session = session;
    next();
  };
}

export const sessionOf = (locals: Record<string, unknown>): SessionInfo =>
  locals.session as SessionInfo;
