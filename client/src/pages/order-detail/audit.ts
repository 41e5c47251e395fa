import type { Order, TickRef } from '@shared/orders/model';

/** Ticks shown on each side of the moment that decides (acceptance, expiry, a sale's acceptance). */
const AUDIT_SIDE = 3;
/**
 * How much tape is read on each side of a moment (ms): three ticks at the feed rates the sim runs
 * (a tick every 0.3–1 s), and far below the 1 000 ticks one request returns.
 */
export const AUDIT_SPAN_MS = 5_000;

export type AuditRow =
  { kind: 'tick'; tick: TickRef; chosen: boolean } | { kind: 'moment'; at: number };

export interface Audit {
  rows: AuditRow[];
  /** The tick the rule picks from this stretch of tape (null: none in it). */
  ruleTick: TickRef | null;
  /** Whether the order's recorded tick is the one the rule picks (null: the order has none yet). */
  agrees: boolean | null;
}

/** Tape order as the settlement reads it: by time, ties by sequence. */
const byTime = (a: TickRef, b: TickRef) => a.ts - b.ts || a.seq - b.seq;

/**
 * The tape around an order's acceptance, as the entry rule reads it (server entry-rule.ts and
 * orders.repo.ts): the entry is the first tick with ts > acceptance (ties: the lowest seq). Rows:
 * a few ticks at or before acceptance, the moment itself, and a few after, the first of them the
 * rule's pick.
 */
export function entryAudit(tape: readonly TickRef[], order: Order, side = AUDIT_SIDE): Audit {
  return firstAfterAudit(tape, order.createdAt, order.entry, side);
}

/**
 * The tape around a sale's acceptance (docs/FAIRNESS.md, Early close): the sale tick, a sold
 * order's `exit`, is the first tick with ts > the sale's acceptance, as for an entry.
 */
export function saleAudit(tape: readonly TickRef[], order: Order, side = AUDIT_SIDE): Audit {
  const at = order.sale?.requestedAt ?? order.settledAt ?? order.expiresAt;
  return firstAfterAudit(tape, at, order.exit, side);
}

function firstAfterAudit(
  tape: readonly TickRef[],
  at: number,
  recorded: TickRef | null,
  side: number,
): Audit {
  const sorted = [...tape].sort(byTime);
  const before = sorted.filter((t) => t.ts <= at).slice(-side);
  const after = sorted.filter((t) => t.ts > at).slice(0, side);
  const ruleTick = after[0] ?? null;
  return {
    rows: [
      ...before.map((tick) => tickRow(tick, recorded)),
      { kind: 'moment', at },
      ...after.map((tick) => tickRow(tick, recorded)),
    ],
    ruleTick,
    agrees: recorded ? ruleTick?.seq === recorded.seq : null,
  };
}

/**
 * The tape around expiry, as the exit rule reads it (exit-rule.ts, orders.repo.ts claimDue): the
 * exit is the last tick with entry ts ≤ ts ≤ expiry (ties: the highest seq). Rows: a few ticks at
 * or before expiry, the last of them the rule's pick, the moment itself, and a few after.
 */
export function exitAudit(tape: readonly TickRef[], order: Order, side = AUDIT_SIDE): Audit {
  const sorted = [...tape].sort(byTime);
  const entryTs = order.entry?.ts ?? -Infinity;
  const before = sorted.filter((t) => t.ts <= order.expiresAt).slice(-side);
  const after = sorted.filter((t) => t.ts > order.expiresAt).slice(0, side);
  const last = before.at(-1);
  const ruleTick = last && last.ts >= entryTs ? last : null;
  return {
    rows: [
      ...before.map((tick) => tickRow(tick, order.exit)),
      { kind: 'moment', at: order.expiresAt },
      ...after.map((tick) => tickRow(tick, order.exit)),
    ],
    ruleTick,
    agrees: order.exit ? ruleTick?.seq === order.exit.seq : null,
  };
}

function tickRow(tick: TickRef, chosen: TickRef | null): AuditRow {
  return { kind: 'tick', tick, chosen: chosen?.seq === tick.seq };
}
