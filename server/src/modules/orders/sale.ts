import type { Order, SellOrderBody } from '@shared/orders/model';
import { sellValue } from '@shared/orders/sell-value';
import type { Db } from '@infra/db';
import { AppError, conflict, notFound, unavailable } from '@server/platform/http/errors';
import type { UserEvents } from '@server/platform/user-events';
import { orderAccounts, transfer } from '../ledger/ledger';
import type { MarketService } from '../market/market.service';
import * as repo from './orders.repo';
import * as saleRepo from './sale.repo';

export interface SaleDeps {
  db: Db;
  market: Pick<MarketService, 'spec' | 'product' | 'latestTick' | 'feedReachable' | 'tickAfter'>;
  userEvents: UserEvents;
  balancesChanged: (userIds: number[]) => void;
  present: (row: repo.OrderRow) => Order;
  /** How long a sale waits for its tick (MAX_FEED_DELAY_MS), as an entry does. */
  maxFeedDelayMs: number;
  /** Asks for the tape at its full cadence (a `tape-wanted` message): the sale waits on it. */
  wantTape?: () => void;
  now?: () => number;
}

const notAllowed = (why: string) => conflict('SELL_NOT_ALLOWED', why);

/**
 * The checks a sell passes before it is accepted: the caller's open order with its entry, a
 * product trading with a fresh quote, and more than the product's closing stretch left.
 */
async function checkSellable(d: SaleDeps, userId: number, id: number, now: number) {
  const order = await repo.orderOfUser(d.db, userId, id);
  if (!order) throw notFound('No such order');
  if (order.status !== 'open') throw conflict('INVALID_STATE', 'The order is closed');
  if (order.entry_seq === null || order.entry_price === null)
    throw notAllowed('The order is waiting for its entry tick');
  const product = d.market.product(order.product_id);
  if (product.status !== 'open') throw conflict('QUOTE_STALE', 'The market is not trading');
  if (!d.market.feedReachable())
    throw unavailable('Prices are out of reach; please try again shortly', 2000);
  const quote = d.market.latestTick(order.product_id);
  if (!quote || now - quote.ts > d.maxFeedDelayMs)
    throw conflict('QUOTE_STALE', 'No fresh price; try again');
  return { order, terms: product.earlyClose };
}

/**
 * Closes an open order early (docs/FAIRNESS.md, Early close). The sell is accepted at the
 * database clock; it executes at the first tick recorded after that moment, never at a price the
 * seller could have seen, and at the value the published formula gives for that tick
 * (shared/src/orders/sell-value.ts). A value below `expected − tolerance` is refused
 * (SELL_PRICE_CHANGED), like a changed rate at placement. The order row is locked for the write:
 * a settling worker (its claim skips locked rows) and this sale never both close it, and the one
 * closing transfer per order (its unique ref `settle:<id>`) makes a second closing impossible.
 */
async function sell(d: SaleDeps, userId: number, id: number, body: SellOrderBody): Promise<Order> {
  const now = d.now ?? Date.now;
  const { order, terms } = await checkSellable(d, userId, id, now());
  const requestedMs = await saleRepo.databaseNowMs(d.db);
  if (order.expires_ms - requestedMs <= terms.closesBeforeExpiryMs)
    throw notAllowed('Too close to expiry to sell');

  // The first tick after acceptance: woken by the bus, read from the tape (a tick is published
  // once written), within the feed's allowed delay; none, and nothing is written.
  let tick: saleRepo.SaleTick | null = null;
  d.wantTape?.();
  const deadline = now() + d.maxFeedDelayMs;
  while (!tick && now() < deadline) {
    await d.market.tickAfter(order.product_id, requestedMs, deadline - now());
    tick = await saleRepo.firstTickAfter(d.db, order.product_id, requestedMs);
    if (!tick) await new Promise((r) => setTimeout(r, 20));
  }
  if (!tick) throw conflict('QUOTE_STALE', 'No tick came after the sell; nothing was sold');
  if (tick.ts >= order.expires_ms) throw notAllowed('The order expired before its sale tick');

  const spec = d.market.spec(order.product_id);
  const value = sellValue({
    direction: order.direction,
    amount: order.amount,
    rateBp: order.rate_bp,
    entryPrice: order.entry_price!,
    price: tick.price,
    msLeft: order.expires_ms - tick.ts,
    annualVol: spec.annualVol,
    spreadBp: terms.spreadBp,
  });
  if (value < body.expected - body.tolerance)
    throw new AppError(409, 'SELL_PRICE_CHANGED', `The sell value is now ${value}`);

  const sold = await d.db.transaction(async (tx) => {
    const open = await saleRepo.lockOpenOrder(tx, userId, id);
    if (!open) return null;
    const a = orderAccounts[open.mode];
    await transfer(tx, {
      kind: 'order_sale',
      userId,
      ref: `settle:${open.id}`,
      legs: [
        { account: { user: userId, kind: a.inOrders }, amount: -open.amount },
        ...(value > 0 ? [{ account: { user: userId, kind: a.available }, amount: value }] : []),
        ...(value !== open.amount
          ? [{ account: { house: a.house }, amount: open.amount - value }]
          : []),
      ],
    });
    return saleRepo.markSold(tx, {
      id: open.id,
      tick,
      value,
      requestedMs,
      annualVol: spec.annualVol,
      spreadBp: terms.spreadBp,
    });
  });
  if (!sold) throw conflict('INVALID_STATE', 'The order closed before the sale');
  const answer = d.present(sold);
  d.userEvents.emit(userId, 'order', answer);
  d.balancesChanged([userId]);
  return answer;
}

export function createSaleService(d: SaleDeps) {
  return {
    /** See `sell`. */
    sell: (userId: number, id: number, body: SellOrderBody) => sell(d, userId, id, body),
  };
}
