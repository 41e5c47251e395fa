import {
  compareDecimals,
  expectedOutcome,
  expiryProblem,
  payoutIfWon,
  type PublicTick,
} from '@shared/orders/audit';
import type { Order, TickRef } from '@shared/orders/model';
import { sellValue } from '@shared/orders/sell-value';
import { priceToUnits } from '@shared/price';
import { rateToBp } from '@shared/rates';

/**
 * `npm run verify:orders` on a sold order (docs/FAIRNESS.md, Early close): the sale read afresh
 * from the public tape and the product's published terms. The tick choice is written here again,
 * apart from the server's (sale.repo.ts), on purpose; the value is the published formula itself
 * (shared/src/orders/sell-value.ts), which is what the order is checked against.
 *
 * - The entry: the first tick after acceptance, as for any order.
 * - The sale tick (the order's exit): the first tick with ts > the sell's acceptance, ties by the
 *   lower seq, before expiry; the sell accepted with more than the closing stretch left.
 * - msLeft = expiry − the sale tick's time; σ as the product publishes it (and the fairness
 *   period covering the sale tick, where the server shows it); the spread as published.
 * - value = sellValue(entry, sale tick, msLeft, σ, spread, stake, rate); payout = value, never
 *   above the payout of a win.
 */

/** What the product publishes for early closes (GET /api/market/products/:id). */
export interface PublishedTerms {
  precision: number;
  earlyClose: { annualVol: number; spreadBp: number; closesBeforeExpiryMs: number } | null;
}

/** A fairness period's span and σ (GET /api/market/fairness), where one covers the sale tick. */
export interface PeriodModel {
  periodStart: number;
  periodEnd: number;
  model: { annualVol: number };
}

const showTick = (t: TickRef | null) => (t ? `#${t.seq} ${t.price} at ${t.ts}` : 'none');
const cents = (v: number) => (v / 100).toFixed(2);

/** The first tick with ts > `afterMs` (ties by the lower seq), if any. */
export function firstTickAfter(tape: readonly PublicTick[], afterMs: number): PublicTick | null {
  let first: PublicTick | null = null;
  for (const t of tape)
    if (t.ts > afterMs && (!first || t.ts < first.ts || (t.ts === first.ts && t.seq < first.seq)))
      first = t;
  return first;
}

/** The σ the sale must have used: the covering period's, where shown, else the product's. */
function publishedVol(
  terms: PublishedTerms,
  periods: readonly PeriodModel[],
  ts: number,
): { period: PeriodModel | null; annualVol: number | null } {
  const period = periods.find((p) => p.periodStart <= ts && ts < p.periodEnd) ?? null;
  return { period, annualVol: period?.model.annualVol ?? terms.earlyClose?.annualVol ?? null };
}

/** The inputs of a sale against what the product published: one sentence per difference. */
function termProblems(
  order: Order,
  sale: NonNullable<Order['sale']>,
  terms: PublishedTerms,
  period: PeriodModel | null,
): string[] {
  const problems: string[] = [];
  const published = terms.earlyClose;
  if (!published) return [`sold, but product ${order.productId} publishes no early-close terms`];
  if (sale.annualVol !== published.annualVol)
    problems.push(
      `σ ${sale.annualVol}, product ${order.productId} publishes ${published.annualVol}`,
    );
  if (period && sale.annualVol !== period.model.annualVol)
    problems.push(
      `σ ${sale.annualVol}, the fairness period from ${period.periodStart} publishes ${period.model.annualVol}`,
    );
  if (sale.spreadBp !== published.spreadBp)
    problems.push(`spread ${sale.spreadBp} bp, the product publishes ${published.spreadBp} bp`);
  const before = order.expiresAt - sale.requestedAt;
  if (before <= published.closesBeforeExpiryMs)
    problems.push(
      `sell accepted ${before} ms before expiry: a sell needs more than ${published.closesBeforeExpiryMs} ms left`,
    );
  return problems;
}

/** The sale's tick and value as the rule gives them on the tape; problems for each difference. */
function tickAndValueProblems(
  order: Order,
  sale: NonNullable<Order['sale']>,
  entry: TickRef,
  tick: PublicTick,
  o: { terms: PublishedTerms; annualVol: number | null },
): string[] {
  const problems: string[] = [];
  if (
    !order.exit ||
    order.exit.seq !== tick.seq ||
    order.exit.ts !== tick.ts ||
    compareDecimals(order.exit.price, tick.price) !== 0
  )
    problems.push(
      `sale tick ${showTick(order.exit)}, the first tick after the sell (accepted ${sale.requestedAt}) is ${showTick(tick)}`,
    );
  const msLeft = order.expiresAt - tick.ts;
  if (sale.msLeft !== msLeft)
    problems.push(`msLeft ${sale.msLeft}, expiry − the sale tick's time is ${msLeft}`);
  const annualVol = o.annualVol ?? sale.annualVol;
  const spreadBp = o.terms.earlyClose?.spreadBp ?? sale.spreadBp;
  const value = sellValue({
    direction: order.direction,
    amount: order.amount,
    rateBp: rateToBp(order.rate),
    entryPrice: priceToUnits(entry.price, o.terms.precision),
    price: priceToUnits(tick.price, o.terms.precision),
    msLeft,
    annualVol,
    spreadBp,
  });
  if (sale.value !== value)
    problems.push(
      `value ${cents(sale.value)}, the published formula gives ${cents(value)} ` +
        `(K ${entry.price}, S ${tick.price}, ${msLeft} ms left, σ ${annualVol}, spread ${spreadBp} bp)`,
    );
  return problems;
}

/**
 * How a sold order differs from the published early-close rule on `tape` (acceptance to expiry):
 * one sentence per difference, none when it was sold as published.
 */
export function auditSale(
  order: Order,
  tape: readonly PublicTick[],
  maxFeedDelayMs: number,
  published: { terms: PublishedTerms; periods: readonly PeriodModel[] },
): string[] {
  const problems: string[] = [];
  const sale = order.sale;
  const expiry = expiryProblem(order);
  if (expiry) problems.push(expiry);
  if (!sale) return [...problems, 'sold, but the order shows no sale'];
  const { entry } = expectedOutcome(order, tape, maxFeedDelayMs);
  const orderEntry = order.entry;
  if (!entry || !orderEntry || orderEntry.seq !== entry.seq || orderEntry.ts !== entry.ts)
    problems.push(`entry ${showTick(orderEntry)}, the tape gives ${showTick(entry)}`);
  const tick = firstTickAfter(tape, sale.requestedAt);
  const { period, annualVol } = publishedVol(published.terms, published.periods, tick?.ts ?? 0);
  problems.push(...termProblems(order, sale, published.terms, period));
  if (!tick || tick.ts >= order.expiresAt)
    problems.push(
      `sold at ${showTick(order.exit)}, but no tick came after the sell (accepted ${sale.requestedAt}) before expiry`,
    );
  else if (entry)
    problems.push(
      ...tickAndValueProblems(order, sale, entry, tick, { terms: published.terms, annualVol }),
    );
  const winPays = payoutIfWon(order.amount, order.rate);
  if (sale.value > winPays)
    problems.push(`value ${cents(sale.value)} is above the payout of a win, ${cents(winPays)}`);
  if (order.payout !== sale.value)
    problems.push(`payout ${order.payout}, the sale's value is ${sale.value}`);
  if (order.pnl !== sale.value - order.amount)
    problems.push(`P&L ${order.pnl}, the sale gives ${sale.value - order.amount}`);
  if (order.voidReason !== null) problems.push(`void reason ${order.voidReason} on a sold order`);
  return problems;
}
