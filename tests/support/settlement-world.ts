import fc from 'fast-check';
import type { Db } from '@infra/db';
import type { TradeMode } from '@shared/orders/model';
import { insertTicks } from '@sim/tape.repo';
import { insertOrdersWithStakes } from '@server/modules/orders/orders.repo';
import { settle, type ExitView, type Settlement } from '@server/modules/orders/exit-rule';

/**
 * The generated worlds of settlement-set.test.ts: small tapes, expiry instants and orders, laid
 * out relative to a time origin, written to the database, and the result exit-rule.ts's `settle`
 * gives each order with the exit view DECISIONS.md defines.
 */

export type Tick = { seq: number; ts: number; price: number };

/** How far the tape and the expiries reach after the origin, ms (the origin is in the past). */
export const SPAN_MS = 12_000;

const tapeArb = fc
  .array(
    fc.record({
      // 0: a tie (same ts, a higher seq); short steps; and gaps longer than the max feed delay.
      gap: fc.oneof(
        fc.constant(0),
        fc.integer({ min: 1, max: 350 }),
        fc.integer({ min: 1600, max: 2400 }),
      ),
      move: fc.integer({ min: -2, max: 2 }),
    }),
    { maxLength: 12 },
  )
  .map((steps) => {
    const tape: Tick[] = [];
    let ts = 0;
    let price = 100;
    for (const [i, s] of steps.entries()) {
      // Even offsets: a free entry (odd) never shares a tick's time.
      ts += s.gap * 2;
      price = Math.max(1, price + s.move);
      if (ts <= SPAN_MS) tape.push({ seq: i + 1, ts, price });
    }
    return tape;
  });

const expiryArb = fc.record({
  on: fc.constantFrom('tick' as const, 'nearTick' as const, 'anywhere' as const),
  pick: fc.nat(),
  delta: fc.integer({ min: -3, max: 3 }),
  anywhere: fc.integer({ min: -1000, max: SPAN_MS }),
});

const productArb = fc.record({
  tape: tapeArb,
  expiries: fc.array(expiryArb, { minLength: 1, maxLength: 3 }),
});

const orderArb = fc.record({
  product: fc.nat(),
  expiry: fc.nat(),
  user: fc.constantFrom(0, 1),
  mode: fc.constantFrom<TradeMode>('real', 'practice'),
  direction: fc.constantFrom('up' as const, 'down' as const),
  // Odd stakes and rates: the payout's rounding down shows.
  amount: fc.oneof(fc.integer({ min: 1000, max: 5_000_000 }), fc.constantFrom(1001, 1999, 12_345)),
  rateBp: fc.oneof(fc.constantFrom(8000, 8500, 8800, 9000), fc.integer({ min: 0, max: 9999 })),
  // The entry: a tick of the tape at or before expiry (the entry rule's), or one not on the tape
  // (some time before expiry), which the set's exit may precede.
  entry: fc.oneof(
    { weight: 3, arbitrary: fc.record({ onTape: fc.constant(true as const), pick: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        onTape: fc.constant(false as const),
        back: fc.integer({ min: 0, max: 2500 }),
        price: fc.integer({ min: 96, max: 104 }),
      }),
    },
  ),
});

export const worldArb = fc.record({
  products: fc.array(productArb, { minLength: 1, maxLength: 2 }),
  orders: fc.array(orderArb, { minLength: 1, maxLength: 30 }),
  batchSize: fc.integer({ min: 1, max: 8 }),
  /** A simulator holding a live lease: sets whose tape is not final through expiry wait. */
  feedLive: fc.boolean(),
  /** The tape's watermark, as an offset from the origin (null: far behind). */
  watermark: fc.option(fc.integer({ min: -1000, max: SPAN_MS }), { nil: null }),
});
export type World = typeof worldArb extends fc.Arbitrary<infer T> ? T : never;

/** One order as laid out: its product, terms, entry and expiry, in epoch ms. */
export interface Placed {
  id: number;
  userId: number;
  mode: TradeMode;
  productId: string;
  direction: 'up' | 'down';
  amount: number;
  rateBp: number;
  entry: Tick;
  expiresMs: number;
}

/** A product's tape in epoch ms, with its product id. */
export interface Tape {
  productId: string;
  ticks: Tick[];
}

const pickOf = <T>(list: readonly T[], n: number): T | undefined => list[n % list.length];

function expiryOf(e: World['products'][number]['expiries'][number], tape: Tick[]): number {
  const tick = pickOf(tape, e.pick);
  if (e.on === 'tick' && tick) return tick.ts;
  if (e.on === 'nearTick' && tick) return tick.ts + e.delta;
  return e.anywhere;
}

/**
 * Writes one world: its tapes (products named after `tag`), its orders staked through the ledger
 * as placement does, then given their entry and expiry by hand. `origin` is an even epoch ms far
 * enough in the past that every expiry is due. Returns the tapes and the orders as written.
 */
export async function writeWorld(
  db: Db,
  w: World,
  { tag, origin, users }: { tag: string; origin: number; users: number[] },
): Promise<{ tapes: Tape[]; orders: Placed[] }> {
  const tapes = w.products.map((p, i) => ({
    productId: `${tag}${String.fromCharCode(65 + i)}`,
    ticks: p.tape.map((t) => ({ ...t, ts: origin + t.ts })),
  }));
  await insertTicks(
    db,
    tapes.flatMap((t) => t.ticks.map((k) => ({ productId: t.productId, ...k, qty: 1 }))),
  );
  const laid = w.orders.map((o, n) => {
    const p = pickOf(w.products, o.product)!;
    const tape = pickOf(tapes, o.product)!;
    const expiresMs = origin + expiryOf(pickOf(p.expiries, o.expiry)!, p.tape);
    const candidates = tape.ticks.filter((t) => t.ts <= expiresMs);
    const onTape = o.entry.onTape ? pickOf(candidates, o.entry.pick) : undefined;
    // Off the tape: an odd time at or before expiry (never a tick's time, which is even).
    const offTs = expiresMs - (o.entry.onTape ? 0 : o.entry.back);
    const entry = onTape ?? {
      seq: 1_000_000 + n,
      ts: offTs % 2 === 0 ? offTs - 1 : offTs,
      price: o.entry.onTape ? 100 : o.entry.price,
    };
    return { ...o, productId: tape.productId, expiresMs, entry };
  });
  const rows = await insertOrdersWithStakes(
    db,
    laid.map((o) => ({
      userId: users[o.user]!,
      mode: o.mode,
      productId: o.productId,
      direction: o.direction,
      amount: o.amount,
      duration: 30,
      rateBp: o.rateBp,
    })),
  );
  const orders = laid.map((o, i) => ({ ...o, id: Number(rows[i]!.id), userId: users[o.user]! }));
  // The entry and expiry by hand: accepted just before the entry, due long ago.
  await db.query(
    `UPDATE orders o SET entry_seq = v.seq, entry_ts = v.ts, entry_price = v.price,
            accepted_ms = v.ts - 1, expires_ms = v.exp,
            expires_at = 'epoch'::timestamptz + v.exp * interval '1 millisecond'
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
          AS v(id, seq, ts, price, exp)
     WHERE o.id = v.id`,
    [
      orders.map((o) => o.id),
      orders.map((o) => o.entry.seq),
      orders.map((o) => o.entry.ts),
      orders.map((o) => o.entry.price),
      orders.map((o) => o.expiresMs),
    ],
  );
  return { tapes, orders };
}

/**
 * exit-rule.ts's `settle` for one order, with the view DECISIONS.md defines: the exit is the last
 * tick with ts ≤ expiry (ties: the highest seq), none when that tick lies before the order's
 * entry; the tape is final once a later tick is recorded or the watermark reached the expiry.
 */
export function expected(
  o: Placed,
  tape: Tape,
  at: { watermarkMs: number; feedLive: boolean; nowMs: number },
  maxFeedDelayMs: number,
): Settlement {
  const last = tape.ticks
    .filter((t) => t.ts <= o.expiresMs)
    .reduce<Tick | null>(
      (a, b) => (!a || b.ts > a.ts || (b.ts === a.ts && b.seq > a.seq) ? b : a),
      null,
    );
  const view: ExitView = {
    exit: last && last.ts >= o.entry.ts ? last : null,
    tapeFinal: at.watermarkMs >= o.expiresMs || tape.ticks.some((t) => t.ts > o.expiresMs),
    sinceExpiryMs: at.nowMs - o.expiresMs,
    feedLive: at.feedLive,
  };
  return settle(
    {
      direction: o.direction,
      amount: o.amount,
      rateBp: o.rateBp,
      entryPrice: o.entry.price,
      expiresMs: o.expiresMs,
    },
    view,
    maxFeedDelayMs,
  );
}
