import type { FairnessPeriod } from '@shared/market/model';
import type { FairnessQuery } from '@shared/market/requests';
import { encodeState } from '@sim/index';
import { listPeriods, markRevealed, unrevealedEnded, type PeriodRow } from '@sim/index';
import type { Db } from '@infra/db';
import type { Logger } from '@infra/logger';
import { periodicJob } from '@server/platform/periodic';

/**
 * How long after a period's end its secret stays sealed at least, and how late an order may have
 * been accepted to count as one that could depend on the period: covers the clocks of the
 * simulator and the database differing by a few seconds and the tape's flush.
 */
export const REVEAL_MARGIN_MS = 10_000;

export interface FairnessDeps {
  db: Db;
  /** The acceptance time (epoch ms) of the oldest open order per product. */
  oldestOpenOrders: () => Promise<Map<string, number>>;
  /** Whether `id` is a product of the catalogue (else 404). */
  spec: (id: string) => unknown;
  log?: Logger;
  now?: () => number;
  /** REVEAL_MARGIN_MS unless a test says otherwise. */
  marginMs?: number;
}

/** The public face of a period: the secret only once revealed. */
export function presentPeriod(p: PeriodRow): FairnessPeriod {
  return {
    productId: p.productId,
    periodStart: p.periodStart,
    periodEnd: p.periodEnd,
    commitment: p.commitment,
    committedAt: p.committedAt,
    model: p.model,
    start: p.start ? { seq: p.start.seq, ts: p.start.ts, ...encodeState(p.start.state) } : null,
    secret: p.revealedAt !== null ? p.secret : null,
    revealedAt: p.revealedAt,
  };
}

/** Commitments and revealed secrets of the live feed (docs/FAIRNESS.md), and their reveal. */
export function createFairnessService(d: FairnessDeps) {
  const now = d.now ?? Date.now;
  const margin = d.marginMs ?? REVEAL_MARGIN_MS;
  return {
    async list(q: FairnessQuery): Promise<FairnessPeriod[]> {
      d.spec(q.product);
      const to = q.to ?? now() + 3 * 3_600_000;
      const from = q.from ?? Math.min(to, now() - 86_400_000);
      return (await listPeriods(d.db, q.product, from, to, q.limit)).map(presentPeriod);
    },

    /**
     * Reveals every period that has ended (by the database clock, with the margin) and on which
     * no open order can still depend: none accepted before its end + margin is open. An order
     * accepted later takes its entry (the first tick after acceptance) and its exit after the
     * period, so it cannot depend on it.
     */
    async revealDue(): Promise<number> {
      const ended = await unrevealedEnded(d.db, margin);
      if (!ended.length) return 0;
      const oldest = await d.oldestOpenOrders();
      const due = ended.filter((p) => {
        const accepted = oldest.get(p.productId);
        return accepted === undefined || accepted >= p.periodEnd + margin;
      });
      await markRevealed(d.db, due);
      if (due.length) d.log?.info({ periods: due.length }, 'revealed period secrets');
      return due.length;
    },
  };
}

export type FairnessService = ReturnType<typeof createFairnessService>;

/** Runs `revealDue` every `everyMs` (every api process; revealing twice is harmless). */
export function startRevealJob(fairness: FairnessService, everyMs: number, log?: Logger) {
  const job = periodicJob({
    run: () => fairness.revealDue(),
    defaultEveryMs: everyMs,
    failed: (err) => log?.warn({ err: (err as Error).message }, 'reveal failed'),
  });
  job.start(everyMs, everyMs);
  return { stop: () => job.stop() };
}
