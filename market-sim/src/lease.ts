import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '@infra/db';
import type { Logger } from '@infra/logger';

/** Thrown inside a tape transaction by a simulator that no longer holds the lease. */
export class FencedOut extends Error {
  constructor(epoch: number) {
    super(`the simulator lease moved on from epoch ${epoch}`);
  }
}

export type LeaseState = 'standby' | 'leader';

/** A lease's fence as a query (`Lease.fenceQuery`), and the error a refused write throws. */
export interface FenceQuery {
  sql: string;
  values: unknown[];
  refused(): Error;
}

/** The fence of a lease row held by `holder` at `epoch` (`Lease.fenceQuery`). */
const fenceQueryOf = (
  table: string,
  id: number | string,
  holder: string,
  epoch: number,
): FenceQuery => ({
  sql: `SELECT 1 FROM ${table} WHERE id = $3 AND holder = $1 AND epoch = $2 FOR SHARE`,
  values: [holder, epoch, id],
  refused: () => new FencedOut(epoch),
});

export interface LeaseOptions {
  db: Db;
  /** How long a lease lasts without renewal (ms); a standby takes over this long after a leader dies. */
  ttlMs?: number;
  /** How often the leader renews and a standby tries (ms). */
  pollMs?: number;
  log?: Logger;
  /** The holder's name in the lease row and the logs; unique per process by default. */
  holder?: string;
  /** Called when this process becomes the leader or stops being it. */
  onChange?: (state: LeaseState, epoch: number) => void;
  /**
   * The lease's row: the simulator's (`sim_lease`, id 1) by default; the chain watchers hold one
   * per network (`watcher_lease`, id = network). `role` names the holder in the logs.
   */
  row?: { table: 'sim_lease' | 'watcher_lease'; id: number | string; role: string };
}

/** What the leader runs while it leads; stopped when the lease is lost or the process ends. */
export interface Led {
  stop(): Promise<void>;
}

export interface Lease {
  readonly holder: string;
  state(): LeaseState;
  epoch(): number;
  /**
   * True while this process may publish: it leads and its last renewal is recent enough that no
   * standby can have taken over meanwhile.
   */
  leading(): boolean;
  /** Resolves once this process leads and what `lead` started is running. */
  whenLeading(): Promise<void>;
  /** Inside a tape transaction: throws `FencedOut` unless this process still holds the lease. */
  fence(tx: Queryable): Promise<void>;
  /**
   * The same fence as a query for a write in one statement (`writeTape`): it returns a row, locked
   * FOR SHARE until the statement's transaction ends, while this process holds the lease; none once
   * the lease has moved on. Its parameters are `$1`… in the order of `values`.
   */
  fenceQuery(): FenceQuery;
  stop(): Promise<void>;
}

/**
 * A lease in the database (table `sim_lease`) that lets exactly one simulator lead. The leader
 * renews it every `pollMs`; a standby takes it once it has expired by the database's clock, with
 * the epoch raised, and starts `lead()`. A leader that cannot renew stops publishing before its
 * lease can have expired (`leading()`), and the tape writer's `fence` refuses its writes once the
 * epoch has moved on, so two simulators never both write the tape.
 */
export function holdLease(o: LeaseOptions, lead: (lease: Lease) => Promise<Led>): Lease {
  const ttlMs = o.ttlMs ?? 3000;
  const pollMs = o.pollMs ?? 500;
  const holder = o.holder ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const { table, id, role } = o.row ?? { table: 'sim_lease', id: 1, role: 'simulator' };
  let state: LeaseState = 'standby';
  let epoch = 0;
  /** process-clock time of the last successful acquire or renewal */
  let confirmedAt = 0;
  /** What `lead` started (or is starting: the renewals go on meanwhile). */
  let led: Promise<Led | null> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let markLeading = () => {};
  const firstLead = new Promise<void>((resolve) => (markLeading = resolve));

  const lease: Lease = {
    holder,
    state: () => state,
    epoch: () => epoch,
    // A margin of one poll below the TTL: by then a renewal has failed at least once.
    leading: () => state === 'leader' && Date.now() - confirmedAt < ttlMs - pollMs,
    whenLeading: () => firstLead,
    async fence(tx) {
      const q = lease.fenceQuery();
      const { rowCount } = await tx.query(q.sql, q.values);
      if (rowCount === 0) throw q.refused();
    },
    fenceQuery: () => fenceQueryOf(table, id, holder, epoch),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await resign('process stopping');
      if (state === 'standby' && epoch > 0)
        // Hand over at once: a standby need not wait for the TTL.
        await o.db
          .query(
            `UPDATE ${table} SET expires_at = 'epoch' WHERE id = $3 AND holder = $1 AND epoch = $2`,
            [holder, epoch, id],
          )
          .catch(() => undefined);
    },
  };

  const resign = async (why: string) => {
    if (state !== 'leader') return;
    state = 'standby';
    const level = why === 'process stopping' ? 'info' : 'warn';
    o.log?.[level]({ holder, epoch, why }, `${role} no longer leads`);
    o.onChange?.('standby', epoch);
    const current = led;
    led = null;
    await (await current)?.stop();
  };

  const ttl = `${ttlMs} milliseconds`;
  const attempt = async () => {
    if (state === 'leader') {
      try {
        const { rowCount } = await o.db.query(
          // Renewed even if it expired meanwhile (a stalled event loop), as long as nobody took
          // it: the epoch says so. A standby that took it raised the epoch.
          `UPDATE ${table} SET expires_at = now() + $3::interval
            WHERE id = $4 AND holder = $1 AND epoch = $2`,
          [holder, epoch, ttl, id],
        );
        if (rowCount === 1) confirmedAt = Date.now();
        else await resign('the lease was taken over');
      } catch (err) {
        o.log?.warn({ err: (err as Error).message }, 'lease renewal failed');
        if (!lease.leading()) await resign('could not renew the lease in time');
      }
      return;
    }
    try {
      const { rows } = await o.db.query<{ epoch: string }>(
        `UPDATE ${table} SET holder = $1, epoch = epoch + 1, expires_at = now() + $2::interval
          WHERE id = $3 AND expires_at <= now()
          RETURNING epoch`,
        [holder, ttl, id],
      );
      if (rows.length === 0) return;
      epoch = Number(rows[0]!.epoch);
      confirmedAt = Date.now();
      state = 'leader';
      o.log?.info({ holder, epoch }, `${role} leads`);
      o.onChange?.('leader', epoch);
      led = lead(lease).then(
        (started) => {
          markLeading();
          return started;
        },
        async (err: unknown) => {
          o.log?.error({ err: (err as Error).message }, `the ${role} could not start`);
          led = null;
          await resign('could not start leading');
          return null;
        },
      );
    } catch (err) {
      o.log?.warn({ err: (err as Error).message }, 'lease attempt failed');
    }
  };

  const loop = () => {
    if (stopped) return;
    running = attempt()
      .catch((err: unknown) => o.log?.error({ err: (err as Error).message }, 'lease round failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, pollMs);
      });
  };
  o.log?.info({ holder }, `${role} waiting for the lease`);
  o.onChange?.('standby', 0);
  loop();
  return lease;
}
