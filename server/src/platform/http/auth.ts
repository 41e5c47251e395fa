import type { RequestHandler } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, unauthenticated } from './errors';

/** Who may call a route (route.ts): the document's security follows from it. */
export type Caller = 'user' | 'operator' | 'userOrOperator';

/** Middleware that lets only `who` through. */
export type Guard = RequestHandler & { readonly who: Caller };

/** Marks `check` as the guard of `caller`. */
export const guard = (caller: Caller, check: RequestHandler): Guard =>
  Object.assign(check, { who: caller });

/** Who a request's session belongs to (`res.locals.session` after `requireUser`). */
export interface SessionInfo {
  userId: number;
  tokenHash: string;
  /** An operator froze the account: it may read, not act (issue 20). */
  frozen?: boolean;
}

/** What `requireUser` needs: the auth module's session check, and nothing else of it. */
export interface Authenticator {
  authenticate(token: string): Promise<SessionInfo | null>;
}

/** The bearer token of a request, or null. */
export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer ([A-Za-z0-9_-]{1,100})$/.exec(header ?? '');
  return m?.[1] ?? null;
}

/**
 * 401 UNAUTHENTICATED unless the request carries a live session; puts it in `res.locals.session`.
 * A frozen account's session may read (GET) but not act: 403 ACCOUNT_FROZEN, except where
 * `allowFrozen` (signing out).
 */
export function requireUser(
  auth: Authenticator,
  { allowFrozen = false } = {},
): Guard & { readonly refusesFrozen: boolean } {
  const check = guard('user', async (req, res, next) => {
    const token = bearerToken(req.headers.authorization);
    const session = token ? await auth.authenticate(token) : null;
    if (!session) throw unauthenticated();
    if (session.frozen && !allowFrozen && req.method !== 'GET' && req.method !== 'HEAD')
      throw new AppError(403, 'ACCOUNT_FROZEN', 'This account is frozen; contact support');
    res.locals.session = session;
    next();
  });
  return Object.assign(check, { refusesFrozen: !allowFrozen });
}

export const sessionOf = (locals: Record<string, unknown>): SessionInfo =>
  locals.session as SessionInfo;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The SHA-256 of each operator token the api accepts: the current one, and during a rotation the
 * one it replaces (OPERATOR_TOKEN_PREVIOUS).
 */
export type OperatorTokenHashes = string | readonly string[];

/** Constant-time comparison of a presented token with every accepted hash (no early exit). */
export function operatorTokenMatches(presented: string, hashes: OperatorTokenHashes): boolean {
  const a = Buffer.from(sha256(presented), 'hex');
  let matched = false;
  for (const hash of typeof hashes === 'string' ? [hashes] : hashes) {
    const b = Buffer.from(hash, 'hex');
    if (a.length === b.length && timingSafeEqual(a, b)) matched = true;
  }
  return matched;
}
