import type { Db } from '@infra/db';
import type { Logger } from '@infra/logger';
import type { ProductSpec } from './catalogue';
import {
  commitmentOf,
  modelParamsOf,
  newSecret,
  periodStartOf,
  type ModelParams,
} from './fairness';
import { insertPeriods, periodsStartingBetween } from './fairness.repo';

/** A committed period the simulator may tick in. */
export interface LivePeriod {
  start: number;
  secret: Buffer;
  params: ModelParams;
}

export interface Commitments {
  /**
   * The period of `productId` holding `ts`, once its commitment is stored; null otherwise, and
   * then no tick may be made (a tick is only ever drawn from a secret committed to beforehand).
   */
  periodFor(productId: string, ts: number): LivePeriod | null;
  /** Stores commitments for the periods ahead and loads the stored ones (the timer does this too). */
  ensure(): Promise<void>;
  stop(): void;
}

/**
 * Keeps every product's commitments ahead of time: the current period and those starting within
 * the next `max(2 periods, 2 minutes)` are stored (a fresh secret each) well before they begin.
 * What is read back from the database is what counts: if another simulator stored a period first,
 * its secret is the one used, so two simulators can never tick one period with different secrets.
 */
export async function startCommitments(o: {
  db: Db;
  catalogue: readonly ProductSpec[];
  periodMs: number;
  now: () => number;
  log?: Logger;
}): Promise<Commitments> {
  const loaded = new Map<string, LivePeriod>();
  const key = (productId: string, start: number) => `${productId}@${start}`;
  const horizon = Math.max(2 * o.periodMs, 120_000);

  const ensure = async () => {
    const now = o.now();
    const from = periodStartOf(now, o.periodMs);
    const to = periodStartOf(now + horizon, o.periodMs);
    const fresh = [];
    for (const spec of o.catalogue) {
      for (let start = from; start <= to; start += o.periodMs) {
        if (loaded.has(key(spec.id, start))) continue;
        const secret = newSecret();
        fresh.push({
          productId: spec.id,
          periodStart: start,
          periodEnd: start + o.periodMs,
          commitment: commitmentOf(secret),
          secret: secret.toString('hex'),
          model: modelParamsOf(spec),
          committedAt: now,
        });
      }
    }
    if (!fresh.length) return;
    await insertPeriods(o.db, fresh);
    for (const row of await periodsStartingBetween(o.db, from, to)) {
      loaded.set(key(row.productId, row.periodStart), {
        start: row.periodStart,
        secret: Buffer.from(row.secret, 'hex'),
        params: row.model,
      });
    }
    // Periods that ended a while ago are of no more use to the live feed.
    for (const [k, p] of loaded) if (p.start + 2 * o.periodMs < from) loaded.delete(k);
  };

  await ensure();
  const timer = setInterval(
    () =>
      void ensure().catch((err: unknown) =>
        o.log?.warn({ err: (err as Error).message }, 'storing commitments failed; will retry'),
      ),
    Math.min(30_000, Math.max(100, o.periodMs / 4)),
  );

  return {
    periodFor(productId, ts) {
      return loaded.get(key(productId, periodStartOf(ts, o.periodMs))) ?? null;
    },
    ensure,
    stop: () => clearInterval(timer),
  };
}
