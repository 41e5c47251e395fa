import type { Bus } from '@infra/bus';
import type { Db } from '@infra/db';
import type { Logger } from '@infra/logger';
import type { MarketState } from '@shared/bus';
import type { ProductSpec } from './catalogue';
import type { Lease } from './lease';
import type { TapeFigures } from './tape-writer';

/**
 * Where live ticks draw their randomness (docs/FAIRNESS.md):
 * - `committed` (production): a fresh secret per product and period, committed to before the
 *   period begins and revealed after it; nobody can predict a tick, anyone can verify the tape.
 * - `seeded`: the public seed, for tests and benchmarks whose point is to replay. Anyone who
 *   knows the seed knows every future tick, so production configuration refuses it.
 * The first-start backfill of history is seeded in both: it is the past, and reproducible.
 */
export type Randomness = { kind: 'committed'; periodMs: number } | { kind: 'seeded' };

export interface FeedOptions {
  db: Db;
  bus: Bus;
  catalogue: readonly ProductSpec[];
  /** Seed of the backfill of history, and of live ticks when `randomness` is seeded. */
  seed: number;
  randomness: Randomness;
  ticksPerSecond: number;
  backfillHours: number;
  /**
   * Days of coarse (hourly) history drawn before a first start's backfill, for the long charts
   * (4h, 1D); 0 for none. Only with a backfill (`backfillHours` > 0).
   */
  historyDays?: number;
  retentionHours: number;
  log?: Logger;
  /** Injected clock (tests). */
  now?: () => number;
  /** How often the tape writer flushes (ms). */
  flushMs?: number;
  /**
   * How often it flushes while nobody wants the tape current (no `tape-wanted` or `orders`
   * message on the bus for a few seconds); unset or 0: always `flushMs`.
   */
  restFlushMs?: number;
  /**
   * The simulator's lease (lease.ts), when several may run: nothing is published while `leading()`
   * is false, and each tape write is under its fence, so a former leader never writes the tape.
   */
  lease?: Pick<Lease, 'leading' | 'fence' | 'fenceQuery'>;
  /** Told of every tick emitted (the `sim_ticks_total` counter). */
  onTick?: (productId: string) => void;
  /**
   * Told of the time between each tick and the one before it, while the product stayed open (the
   * `sim_tick_gap_seconds` histogram). A restart's first tick counts the silence since the tape's
   * last tick when the market was open then.
   */
  onGap?: (productId: string, gapMs: number) => void;
  /** Given the tape writer's figures when the feed starts, and null when it stops (metrics). */
  onTape?: (tape: (() => TapeFigures) | null) => void;
}

export interface Feed {
  state(): MarketState;
  stop(): Promise<void>;
}
