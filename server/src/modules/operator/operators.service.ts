import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI } from 'otplib';
import type { Db, Queryable } from '@infra/db';
import { pgErrorCode } from '@infra/db/db';
import { operatorNameSkeleton } from '@shared/operators/names';
import { conflict, notFound } from '@server/platform/http/errors';
import { hashPassword } from '@server/platform/passwords';
import type { OperatorRole } from '@server/platform/http/operator-gate';
import * as repo from './operators.repo';
import { present } from './operator-view';
import { operatorSignIn, operatorSessions, type OperatorLoginLimiters } from './operator-sign-in';
import { operatorLogs } from './operator-logs';

const lastAdmin = () =>
  conflict('LAST_ADMIN', 'The last active admin cannot be disabled or given another role');

const isActiveAdmin = (o: repo.OperatorRow) => o.role === 'admin' && o.disabled_at === null;

/**
 * Changes one operator under the lock of `lockForChange` (that operator and every active admin),
 * refusing a change that would leave no active admin.
 */
const changeOperator = (
  db: Db,
  id: number,
  removesAdmin: (o: repo.OperatorRow) => boolean,
  apply: (tx: Queryable, o: repo.OperatorRow) => Promise<repo.OperatorRow>,
) =>
  db.transaction(async (tx) => {
    const locked = await repo.lockForChange(tx, id);
    const before = locked.find((o) => o.id === id);
    if (!before) throw notFound('No such operator');
    const admins = locked.filter((o) => o.role === 'admin' && o.disabled_at === null);
    if (removesAdmin(before) && admins.every((o) => o.id === id)) throw lastAdmin();
    const after = await apply(tx, before);
    return { before: present(before), after: present(after) };
  });

/** The operators themselves: created, listed, disabled and enabled, given a role. */
function operatorAccounts(db: Db, issuer: string) {
  return {
    /**
     * A new operator with a generated password and TOTP secret. The name (already a slug, not a
     * reserved one: the route's schema) must not look like any operator's (its skeleton):
     * `ACCOUNT_TAKEN` otherwise, checked and inserted under a lock so two look-alikes sent at
     * once cannot both pass.
     */
    async create(input: { name: string; role: OperatorRole }) {
      const password = randomBytes(12).toString('base64url');
      const totpSecret = generateSecret();
      const passwordHash = await hashPassword(password);
      const skeleton = operatorNameSkeleton(input.name);
      let row: repo.OperatorRow | null;
      try {
        row = await db.transaction(async (tx) => {
          await repo.lockNewOperators(tx);
          const names = await repo.operatorNames(tx);
          if (names.some((n) => operatorNameSkeleton(n) === skeleton)) return null;
          return repo.insertOperator(tx, {
            name: input.name,
            role: input.role,
            passwordHash,
            totpSecret,
          });
        });
      } catch (err) {
        if (pgErrorCode(err) !== '23505') throw err;
        row = null;
      }
      if (!row)
        throw conflict(
          'ACCOUNT_TAKEN',
          'An operator has this name, or one that looks like it',
          'name',
        );
      return {
        operator: present(row),
        password,
        totpSecret,
        otpauthUri: generateURI({ issuer, label: row.name, secret: totpSecret }),
      };
    },

    list: async () =>
      (await repo.listOperators(db)).map((o) => ({
        ...present(o),
        liveSessions: o.live_sessions,
      })),

    /**
     * Disables an operator and ends their sessions at once, in one transaction: their next
     * request is 401, and enabling them later does not bring those sessions back. The last
     * active admin cannot be disabled (409 LAST_ADMIN).
     */
    disable: (id: number) =>
      changeOperator(db, id, isActiveAdmin, async (tx, o) => {
        const after = await repo.setOperatorDisabled(tx, o.id, true);
        await repo.revokeOperatorSessions(tx, o.id);
        return after;
      }),

    /** Lets a disabled operator sign in again (with their own password and code). */
    enable: (id: number) =>
      changeOperator(
        db,
        id,
        () => false,
        (tx, o) => repo.setOperatorDisabled(tx, o.id, false),
      ),

    /**
     * Gives an operator another role, from their next request on (every request reads the role).
     * The last active admin keeps theirs (409 LAST_ADMIN).
     */
    setRole: (id: number, role: OperatorRole) =>
      changeOperator(
        db,
        id,
        (o) => isActiveAdmin(o) && role !== 'admin',
        (tx, o) => repo.setOperatorRole(tx, o.id, role),
      ),
  };
}

/**
 * Named operators (issue 20): created by an admin or the service token with a generated password
 * and TOTP secret, shown once; signed in with name, password and a current TOTP code, each code
 * good for one sign-in; sessions of their own (12 h), apart from traders'. Also the audit log.
 */
export function createOperatorsService(
  db: Db,
  limits: OperatorLoginLimiters,
  issuer = 'Trading console',
) {
  return {
    ...operatorAccounts(db, issuer),
    ...operatorSignIn(db, limits),
    ...operatorSessions(db),
    ...operatorLogs(db),
  };
}

export type OperatorsService = ReturnType<typeof createOperatorsService>;
