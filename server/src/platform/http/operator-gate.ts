import type { Request, Response } from 'express';
import {
  bearerToken,
  guard,
  operatorTokenMatches,
  type Guard,
  type OperatorTokenHashes,
} from './auth';
import { hasForbiddenCharacters } from '@shared/text';
import type { OperatorRole } from '@shared/operators/names';
import { forbidden, unauthenticated } from './errors';

/**
 * Who may use /api/ops (issue 20). Named operators sign in with a password and a TOTP code and
 * hold one role; the service token (OPERATOR_TOKEN, the `npm run ops` CLI and automation) is
 * the `service` caller. Every route names the areas it belongs to; a role reaches an area when
 * `roleAreas` says so, and the service token reaches every area.
 */
export { operatorRoles, type OperatorRole } from '@shared/operators/names';

/**
 * The areas of the console: the review queues, user support, administration (products, content,
 * invitation codes, operators, the audit log, the house's figures), and `self` (an operator's own
 * session: who am I, sign out).
 */
export type OperatorArea = 'reviews' | 'support' | 'admin' | 'self';

export const roleAreas: Record<OperatorRole, readonly OperatorArea[]> = {
  reviewer: ['reviews', 'self'],
  support: ['support', 'self'],
  admin: ['reviews', 'support', 'admin', 'self'],
};

/**
 * Whether a caller may read any user's profile (the support area: support, admin, the service
 * token). Other roles see a user's data only through their work: a reviewer the review context
 * of a user with something in the queues (issue 33).
 */
export const readsAnyUser = (caller: OperatorCaller) =>
  caller.role === 'service' || roleAreas[caller.role].includes('support');

/** Whom a request to /api/ops comes from (`res.locals.operator`). */
export interface OperatorCaller {
  /** Null for the service token. */
  id: number | null;
  name: string;
  role: OperatorRole | 'service';
  /** The session's token hash (null for the service token). */
  tokenHash: string | null;
}

/** What the gate needs of the operator module: the session behind a bearer token. */
export interface OperatorAuthenticator {
  authenticate(token: string): Promise<OperatorCaller | null>;
}

/** One line of the audit log. */
export interface AuditEntry {
  operator: OperatorCaller;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  address: string;
  status: number;
}

/**
 * What an operator read of a user's personal data (issue 33): a profile, the review context, an
 * uploaded image. The user is `userId`, or the owner of `uploadId`.
 */
export type PersonalDataRead = {
  operator: OperatorCaller;
  address: string;
} & ({ kind: 'profile' | 'review_context'; userId: number } | { kind: 'upload'; uploadId: string });

/** Where reads of personal data are recorded; the operator module keeps it append-only. */
export interface AccessLogWriter {
  recordRead(read: PersonalDataRead): Promise<void>;
}

/** Where the gate writes what operators did; the operator module keeps it append-only. */
export interface AuditWriter {
  record(entry: AuditEntry): Promise<void>;
}

/**
 * What a handler may say about its action for the audit log; the gate fills the rest (who, when,
 * from where, the route's params as the target, the body's `reason`, and the answer as `after`).
 */
export interface AuditNote {
  target?: string;
  before?: unknown;
  /** Replaces the answer as `after` (an answer holding a secret, say). */
  after?: unknown;
}

export const noteAudit = (res: Response, note: AuditNote) => {
  res.locals.audit = { ...(res.locals.audit as AuditNote | undefined), ...note };
};

export const operatorOf = (locals: Record<string, unknown>): OperatorCaller =>
  locals.operator as OperatorCaller;

/** A guard that also says which areas it lets in (the role matrix test reads it). */
export type OperatorGuard = Guard & { readonly areas: readonly OperatorArea[] };

export interface OperatorGateDeps {
  tokenHash: OperatorTokenHashes | null;
  operators: OperatorAuthenticator;
  audit: AuditWriter;
  /** Told when an audit line could not be written (the action itself has committed). */
  onAuditFailure?: (err: unknown, entry: AuditEntry) => void;
}

const targetOf = (req: Request) => {
  const params = Object.entries(req.params ?? {});
  return params.length ? params.map(([k, v]) => `${k}=${String(v)}`).join(' ') : null;
};

/**
 * The guard factory of /api/ops: `gate('reviews')` lets in the service token and the roles that
 * reach the area; 401 without a valid token, 403 for a role outside it. Every call that changes
 * something (not GET) is written to the audit log once it has succeeded.
 */
export function operatorGate(d: OperatorGateDeps) {
  const callerOf = async (token: string): Promise<OperatorCaller | null> =>
    d.tokenHash && operatorTokenMatches(token, d.tokenHash)
      ? { id: null, name: 'service', role: 'service', tokenHash: null }
      : d.operators.authenticate(token);
  /**
   * The caller of a bearer token if it reaches `area`, else null (for guards of other kinds: the
   * uploads' owner-or-operator guard).
   */
  const callerReaching = async (token: string, area: OperatorArea) => {
    const caller = await callerOf(token);
    return caller && (caller.role === 'service' || roleAreas[caller.role].includes(area))
      ? caller
      : null;
  };
  const gate = (...areas: OperatorArea[]): OperatorGuard => {
    const check = guard('operator', async (req, res, next) => {
      const token = bearerToken(req.headers.authorization);
      if (!token) throw unauthenticated();
      const caller = await callerOf(token);
      // Not the service token and no live operator session (unknown, expired, signed out):
      // 401, so the console signs in again.
      if (!caller) throw unauthenticated();
      const role = caller.role;
      if (role !== 'service' && !areas.some((a) => roleAreas[role].includes(a))) throw forbidden();
      res.locals.operator = caller;
      if (req.method !== 'GET' && req.method !== 'HEAD') watchForAudit(req, res, caller);
      next();
    });
    return Object.assign(check, { areas });
  };
  return Object.assign(gate, { callerReaching });

  /**
   * Writes the audit line of a successful change before its answer goes out (a caller that has
   * the answer finds the line); an answer without a body (204) is audited as it finishes.
   */
  function watchForAudit(req: Request, res: Response, caller: OperatorCaller) {
    let written = false;
    const entryFor = (answer: unknown): AuditEntry => {
      const note = (res.locals.audit ?? {}) as AuditNote;
      const reason = (req.body as { reason?: unknown } | undefined)?.reason;
      return {
        operator: caller,
        action: `${req.method} ${req.baseUrl}${(req.route as { path?: string } | undefined)?.path ?? req.path}`,
        target: note.target ?? targetOf(req),
        before: note.before ?? null,
        after: 'after' in note ? note.after : (answer ?? null),
        // The route's schema has checked a reason it takes; one it does not take is kept only
        // when it is plain text.
        reason:
          typeof reason === 'string' && reason.trim() && !hasForbiddenCharacters(reason)
            ? reason.trim().slice(0, 500)
            : null,
        address: req.ip ?? '',
        status: res.statusCode,
      };
    };
    const write = async (entry: AuditEntry) => {
      written = true;
      try {
        await d.audit.record(entry);
      } catch (err) {
        d.onAuditFailure?.(err, entry);
      }
    };
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode >= 400 || written) return json(body);
      void write(entryFor(body)).then(() => json(body));
      return res;
    };
    res.once('finish', () => {
      if (!written && res.statusCode < 400) void write(entryFor(null));
      // One log line per operator action, refused ones too: the path carries the ids; never
      // the token or the body (messages, reasons and pages are content, not log material).
      const path = req.originalUrl.split('?', 1)[0];
      req.log?.info(
        {
          event: 'operator.action',
          method: req.method,
          path,
          status: res.statusCode,
          operator: caller.name,
          role: caller.role,
        },
        `operator action ${req.method} ${path} ${res.statusCode}`,
      );
    });
  }
}

export type OperatorGate = ReturnType<typeof operatorGate>;
