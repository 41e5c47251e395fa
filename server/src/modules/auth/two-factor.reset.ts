import type { Db } from '@infra/db';
import { pgErrorCode } from '@infra/db/db';
import type { Logger } from '@infra/logger';
import type { Clock } from '@server/platform/clock';
import { AppError, conflict, notFound } from '@server/platform/http/errors';
import type { AuditWriter, OperatorCaller } from '@server/platform/http/operator-gate';
import { periodicJob } from '@server/platform/periodic';
import type { UserEvents } from '@server/platform/user-events';
import * as users from './auth.repo';
import * as repo from './two-factor-reset.repo';
import type { SecurityMessages } from './auth.context';

const HOUR = 3_600_000;
/** How often every api process looks for resets that have come due. */
const APPLY_EVERY_MS = 60_000;
/** Who the audit log names for a reset taking effect: no operator acts then. */
const SYSTEM: OperatorCaller = { id: null, name: 'system', role: 'service', tokenHash: null };

export interface TwoFactorResetDeps {
  db: Db;
  /** The platform clock (movable under TEST_CLOCK=1): when an approved reset takes effect. */
  clock: Clock;
  /** TWO_FACTOR_RESET_DELAY_HOURS: from the approval to the reset. */
  delayHours: number;
  messages: SecurityMessages;
  /** Ends the sockets of a session support ends. */
  sessions: Pick<UserEvents, 'endSessions'>;
  /** The operators' audit log: a reset taking effect is written there as the system's. */
  audit: AuditWriter;
  log: Logger;
}

const noReset = () => conflict('TWO_FACTOR_RESET_NONE', 'No two-factor reset is pending');

/** The four eyes are two named people: the service token is nobody in particular. */
const namedOperator = (caller: OperatorCaller) => {
  if (caller.id === null)
    throw new AppError(
      403,
      'TWO_FACTOR_RESET_NAMED_OPERATOR',
      'A two-factor reset is asked for and approved by named operators',
    );
  return { id: String(caller.id), name: caller.name };
};

/** A pending reset as operators see it. */
const presentReset = (r: repo.ResetRow) => ({
  id: r.id,
  reason: r.reason,
  ticket: r.ticket,
  requestedBy: r.requested_by_name,
  requestedAt: r.requested_at.getTime(),
  approvedBy: r.approved_by_name,
  approvedAt: r.approved_at?.getTime() ?? null,
  effectiveAt: r.effective_at?.getTime() ?? null,
});

/**
 * Applies approved resets once due on the platform clock: the enrolment they were for is turned
 * off (secret, recovery codes, trusted devices), the user told, the audit log written as the
 * system's. Each reset is claimed once, whichever api process or reader comes first.
 */
function dueResets(d: TwoFactorResetDeps) {
  const { db, clock, messages } = d;
  const now = () => new Date(clock.now());
  /** Every due reset (all users', or one's); how many took effect. */
  const applyDue = async (userId?: number): Promise<number> => {
    const due = userId === undefined ? await repo.dueResets(db, now()) : [userId];
    let applied = 0;
    for (const id of due) {
      const done = await db.transaction(async (tx) => {
        const pending = await repo.claimDue(tx, id, now());
        if (!pending) return null;
        const off = await repo.removeEnrolment(tx, id, pending.id);
        return {
          pending,
          announce: off ? await messages.write(tx, id, 'security_two_factor_off') : null,
        };
      });
      if (!done) continue;
      applied++;
      done.announce?.();
      await d.audit.record({
        operator: SYSTEM,
        action: 'SYSTEM two-factor reset took effect',
        target: `user=${id}`,
        before: presentReset(done.pending),
        after: { twoFactor: done.announce ? 'off' : 'already off' },
        reason: null,
        address: '',
        status: 200,
      });
    }
    return applied;
  };

  const job = periodicJob({
    run: () => applyDue(),
    defaultEveryMs: APPLY_EVERY_MS,
    failed: (err) => d.log.error({ err }, 'applying due two-factor resets failed'),
  });

  return { applyDue, job };
}

/** Writes a new pending reset and tells the user when it could take effect at the earliest. */
async function askForReset(
  d: TwoFactorResetDeps,
  userId: number,
  by: { id: string; name: string },
  body: { reason: string; ticket: string },
) {
  const requestedAt = d.clock.now();
  const earliest = requestedAt + d.delayHours * HOUR;
  try {
    const announce = await d.db.transaction(async (tx) => {
      const asked = await repo.insertReset(tx, {
        user_id: userId,
        reason: body.reason,
        ticket: body.ticket,
        requested_by: by.id,
        requested_by_name: by.name,
        requested_at: new Date(requestedAt),
      });
      return asked
        ? d.messages.write(tx, userId, 'security_two_factor_reset', { at: earliest })
        : null;
    });
    if (!announce) throw conflict('TWO_FACTOR_OFF', 'Two-factor sign-in is not on');
    announce();
  } catch (err) {
    if (pgErrorCode(err) === '23505')
      throw conflict('TWO_FACTOR_RESET_PENDING', 'A two-factor reset is pending already');
    throw err;
  }
}

/**
 * The recovery of an account whose owner lost both the authenticator and the recovery codes
 * (DECISIONS.md, Two-factor reset by support; docs/OPERATIONS.md): four eyes (support asks with a
 * reason and a ticket, another operator, an admin, approves), a delay after the approval, the
 * user told at each step with their anti-phishing phrase and able to cancel. A sign-in with a
 * code cancels it too (auth.sign-in-steps.ts): the owner evidently has the factor. What support
 * sees of a user's two-factor and sessions, and ending one session, are here as well.
 */
export function twoFactorResets(d: TwoFactorResetDeps) {
  const { db, clock, messages } = d;
  const now = () => new Date(clock.now());
  const { applyDue, job } = dueResets(d);

  /** The user's pending reset, any due one applied first (a reader never sees a stale one). */
  const pendingOf = async (userId: number) => {
    await applyDue(userId);
    return repo.pendingReset(db, userId);
  };

  const userExists = async (userId: number) => {
    if (!(await users.opsUserById(db, userId))) throw notFound('No such user');
  };

  /** The user's two-factor state on the console: never the secret, codes or hashes. */
  const opsState = async (userId: number) => {
    const pending = await pendingOf(userId);
    const f = await repo.twoFactorFigures(db, userId);
    return {
      enabled: f.since !== null,
      since: f.since?.getTime() ?? null,
      recoveryCodesLeft: f.since ? f.codes : 0,
      trustedDevices: f.devices,
      reset: pending ? presentReset(pending) : null,
    };
  };

  return {
    opsState,
    job,

    /** Support asks for a reset: 409 TWO_FACTOR_OFF without two-factor, or with one pending. */
    async request(
      userId: number,
      caller: OperatorCaller,
      body: { reason: string; ticket: string },
    ) {
      await userExists(userId);
      await askForReset(d, userId, namedOperator(caller), body);
      return opsState(userId);
    },

    /**
     * An admin other than the one who asked approves: the reset takes effect
     * TWO_FACTOR_RESET_DELAY_HOURS later, and the user is told when.
     */
    async approve(userId: number, caller: OperatorCaller) {
      await userExists(userId);
      const pending = await pendingOf(userId);
      if (!pending || pending.approved_at) throw noReset();
      const by = namedOperator(caller);
      if (by.id === pending.requested_by)
        throw new AppError(
          403,
          'TWO_FACTOR_RESET_SAME_OPERATOR',
          'Another operator approves the reset, not the one who asked for it',
        );
      const effectiveAt = clock.now() + d.delayHours * HOUR;
      const announce = await db.transaction(async (tx) =>
        (await repo.approveReset(tx, pending.id, by, now(), new Date(effectiveAt)))
          ? messages.write(tx, userId, 'security_two_factor_reset', { at: effectiveAt })
          : null,
      );
      if (!announce) throw noReset();
      announce();
      return opsState(userId);
    },

    /** An operator calls a pending reset off. */
    async cancel(userId: number, caller: OperatorCaller) {
      await userExists(userId);
      if (!(await repo.endReset(db, userId, 'cancelled_by_operator', caller.name, now())))
        throw noReset();
      return opsState(userId);
    },

    /** The user's own view: the pending reset, if any. */
    async userPending(userId: number) {
      const pending = await pendingOf(userId);
      return {
        reset: pending
          ? {
              requestedAt: pending.requested_at.getTime(),
              effectiveAt: pending.effective_at?.getTime() ?? null,
            }
          : null,
      };
    },

    /** The user, signed in, calls it off (409 TWO_FACTOR_RESET_NONE when none is pending). */
    async userCancel(userId: number): Promise<void> {
      await applyDue(userId);
      if (!(await repo.endReset(db, userId, 'cancelled_by_user', 'user', now()))) throw noReset();
    },

    /** Support ends one session of the user, and its sockets at once (404 for an unknown one). */
    async endSession(userId: number, sessionId: string): Promise<void> {
      await userExists(userId);
      const ended = await users.revokeSessionById(db, userId, sessionId);
      if (!ended) throw notFound('No such session');
      d.sessions.endSessions([ended], 'revoked');
    },
  };
}

export type TwoFactorResets = ReturnType<typeof twoFactorResets>;

/**
 * A right code at sign-in (or in a forgotten password's reset) calls a pending reset off: the
 * owner has the factor after all.
 */
export const cancelResetOnSignIn = (db: Db, userId: number) =>
  repo.endReset(db, userId, 'cancelled_by_sign_in', 'user', new Date());
