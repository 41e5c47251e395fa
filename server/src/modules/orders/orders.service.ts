import {
  bpToRate,
  rateToBp,
  type Order,
  type PlaceOrderBody,
  type TradeMode,
} from '@shared/orders/model';
import type { ErrorCode } from '@shared/errors';
import { unitsToPrice } from '@shared/price';
import type { Db } from '@infra/db';
import { storedAnswer } from '@server/platform/idempotency';
import {
  AppError,
  badRequest,
  conflict,
  notFound,
  unavailable,
} from '@server/platform/http/errors';
import type { UserEvents } from '@server/platform/user-events';
import type { Metrics } from '@server/platform/metrics';
import type { MarketService } from '../market/market.service';
import * as repo from './orders.repo';
import { markResultsSeen, unseenResults } from './results.repo';
import { createPlacementQueue, placedAnswer, type PlacementQueueOptions } from './placement-queue';
import { createSaleService } from './sale';
import { tradingStats } from './stats';
import type { StatsQuery } from '@shared/orders/stats';
import { clockTerms } from '@shared/orders/clock-expiry';
import type { DurationRate } from '@shared/product';

export interface OrdersDeps {
  db: Db;
  market: MarketService;
  userEvents: UserEvents;
  maxFeedDelayMs: number;
  metrics?: Pick<Metrics, 'placements' | 'refusals'>;
  /** Opens a user's practice balance the first time a practice order needs it. */
  practice?: { ensureOpened(userId: number): Promise<void> };
  /** Called after a commit that changed a user's balances (sends the `balance` event). */
  balancesChanged: (userIds: number[]) => void;
  now?: () => number;
  /** PLATFORM_UTC_OFFSET_MINUTES: where a platform day starts (statistics by day). */
  offsetMinutes?: number;
  /** How placements are grouped into statements (placement-queue.ts); its defaults otherwise. */
  placementBatching?: Pick<PlacementQueueOptions, 'maxBatch' | 'maxInFlight'>;
  /** Told of every placement written, to wake the settlement workers (settlement-wake.ts). */
  placed?: () => void;
  /** Asks for the tape current (a sale waits for the tick after it): `tapeWanted`. */
  wantTape?: () => void;
}

/** Database rows never leave the server: this is the Order of API.md. */
export function presentOrder(o: repo.OrderRow, precision: number): Order {
  const settled = o.status !== 'open';
  return {
    id: String(o.id),
    mode: o.mode,
    productId: o.product_id,
    direction: o.direction,
    amount: o.amount,
    duration: o.duration,
    expiry: o.expiry,
    rate: bpToRate(o.rate_bp),
    status: o.status,
    entry:
      o.entry_seq !== null && o.entry_ts !== null && o.entry_price !== null
        ? { seq: o.entry_seq, ts: o.entry_ts, price: unitsToPrice(o.entry_price, precision) }
        : null,
    exit:
      o.exit_seq !== null && o.exit_ts !== null && o.exit_price !== null
        ? { seq: o.exit_seq, ts: o.exit_ts, price: unitsToPrice(o.exit_price, precision) }
        : null,
    payout: settled ? o.payout : null,
    pnl: settled && o.payout !== null ? o.payout - o.amount : null,
    createdAt: o.created_at.getTime(),
    expiresAt: o.expires_ms,
    settledAt: o.settled_at?.getTime() ?? null,
    voidReason: o.void_reason,
    sale:
      o.status === 'sold' &&
      o.sell_requested_ms !== null &&
      o.sell_annual_vol !== null &&
      o.sell_spread_bp !== null &&
      o.exit_ts !== null &&
      o.payout !== null
        ? {
            requestedAt: o.sell_requested_ms,
            msLeft: o.expires_ms - o.exit_ts,
            annualVol: o.sell_annual_vol,
            spreadBp: o.sell_spread_bp,
            value: o.payout,
          }
        : null,
  };
}

/** One direction's open stakes on a product, and what the house pays if it wins. */
interface Side {
  stake: number;
  pays: number;
}

/**
 * Every refusal of API.md a placement can get before anything is written: its duration and
 * stake, the product's status, a changed rate, and a feed that is away or stale. The product's
 * spec and the duration's rung when it passes.
 */
function checkPlacement(d: OrdersDeps, now: () => number, body: PlaceOrderBody) {
  const spec = d.market.spec(body.productId);
  const product = d.market.product(body.productId);
  const { rung, expiresAt } = chooseRung(spec.durations, now, body);
  if (body.amount < spec.minStake || body.amount > spec.maxStake)
    throw new AppError(
      400,
      'AMOUNT_OUT_OF_RANGE',
      `Stake must be between ${spec.minStake} and ${spec.maxStake}`,
      'amount',
    );
  if (product.status === 'maintenance')
    throw conflict('PRODUCT_MAINTENANCE', 'The product is under maintenance');
  if (product.status === 'closed') throw conflict('MARKET_CLOSED', 'The market is closed');
  if (body.rate !== undefined && rateToBp(body.rate) !== rateToBp(rung.rate))
    throw conflict('RATE_CHANGED', `The rate is now ${rung.rate}`, 'rate');
  // Prices come over the bus: with it away (Redis down), an outage to wait out, not a stale quote.
  if (!d.market.feedReachable())
    throw unavailable('Prices are out of reach; please try again shortly', 2000);
  const quote = d.market.latestTick(spec.id);
  if (!quote || now() - quote.ts > d.maxFeedDelayMs)
    throw conflict('QUOTE_STALE', 'No fresh price; try again');
  return { spec, rung, expiresAt };
}

/**
 * The duration band an order is placed on: the one it names, or for an order at a clock time
 * the largest band not above its time left (clock-expiry.ts), with the instant it ends.
 */
function chooseRung(
  durations: readonly DurationRate[],
  now: () => number,
  body: PlaceOrderBody,
): { rung: DurationRate; expiresAt: number | null } {
  if ((body.duration === undefined) === (body.expiry === undefined))
    throw badRequest('DURATION_INVALID', 'Give either a duration or an expiry', 'duration');
  if (body.expiry) {
    const terms = clockTerms(durations, body.expiry, now());
    if (!terms.rung)
      throw conflict('EXPIRY_TOO_SOON', 'Less than 30 s are left in that minute', 'expiry');
    return { rung: terms.rung, expiresAt: terms.expiresAt };
  }
  const rung = durations.find((r) => r.seconds === body.duration);
  if (!rung)
    throw badRequest(
      'DURATION_INVALID',
      `Durations: ${durations.map((r) => r.seconds).join(', ')} s`,
      'duration',
    );
  return { rung, expiresAt: null };
}

/**
 * Accepts a timed order: every refusal of API.md is checked before anything is written; then
 * the order row, the stake's ledger transfer and the idempotency record commit together. The
 * fresh quote only decides whether the feed is alive: the entry is the first tick recorded after
 * acceptance, which the settlement worker fills in (entry-rule.ts), so the answer has none yet.
 */
async function placeOnce(
  d: OrdersDeps,
  now: () => number,
  place: ReturnType<typeof createPlacementQueue>,
  userId: number,
  body: PlaceOrderBody,
  idempotencyKey?: string,
): Promise<{ status: number; body: Order }> {
  const { spec, rung, expiresAt } = checkPlacement(d, now, body);
  // Practice orders take the same checks and the same path, with the practice accounts.
  if (body.mode === 'practice') await d.practice?.ensureOpened(userId);
  const order = {
    userId,
    mode: body.mode,
    productId: spec.id,
    direction: body.direction,
    amount: body.amount,
    duration: body.duration ?? rung.seconds,
    rateBp: rateToBp(rung.rate),
    clock: expiresAt === null || !body.expiry ? null : { expiry: body.expiry, expiresAt },
  };
  // The order and its stake are written in one statement, with other placements when the
  // database is busy; with a key, the key's record commits with them (placement-queue.ts).
  const answer = await place({ order, key: idempotencyKey, request: body });
  if (!answer.replayed) {
    d.placed?.();
    d.userEvents.emit(userId, 'order', answer.body);
    d.balancesChanged([userId]);
  }
  return answer;
}

/**
 * The dashboard's real-money figures: exposure per product and direction, placements in the
 * last minute, and the house's result on orders settled since `dayStart`, with the early closes
 * (sold orders) among them apart.
 */
async function dashboard(d: OrdersDeps, now: () => number, dayStart: Date) {
  const [exposure, activity, voids, sold] = await Promise.all([
    repo.openExposure(d.db),
    repo.realActivity(d.db, new Date(now() - 60_000), dayStart),
    repo.voidsSince(d.db, new Date(now() - 3_600_000)),
    repo.realEarlyClosesSince(d.db, dayStart),
  ]);
  const products = new Map<string, { up: Side; down: Side }>();
  for (const r of exposure) {
    const entry = products.get(r.product_id) ?? {
      up: { stake: 0, pays: 0 },
      down: { stake: 0, pays: 0 },
    };
    entry[r.direction] = { stake: Number(r.stake), pays: Number(r.pays) };
    products.set(r.product_id, entry);
  }
  return {
    exposure: [...products].map(([productId, sides]) => ({ productId, ...sides })),
    placementsLastMinute: activity.placements,
    housePnlToday: activity.houseResult,
    earlyCloses: { count: sold.count, housePnlToday: sold.houseResult },
    // Every product, so a quiet one shows its feed too (DECISIONS.md, Voids stay rare).
    feed: d.market.products().map((p) => {
      const v = voids.get(p.id);
      return {
        productId: p.id,
        largestGapMs: d.market.feedGap(p.id),
        settled: v?.settled ?? 0,
        voids: { FEED_STALE: v?.feedStale ?? 0, NO_ENTRY_TICK: v?.noEntryTick ?? 0 },
      };
    }),
  };
}

/** Unseen results a device is given at most, and how far back (DECISIONS.md, Unseen results). */
const UNSEEN_LIMIT = 20;
const UNSEEN_WITHIN_MS = 7 * 24 * 3_600_000;

export function createOrdersService(d: OrdersDeps) {
  const now = d.now ?? Date.now;
  const present = (o: repo.OrderRow) => presentOrder(o, d.market.spec(o.product_id).precision);
  const place = createPlacementQueue({ db: d.db, present, ...d.placementBatching });
  const sale = createSaleService({ ...d, present });

  return {
    present,

    /** The acceptance time of the oldest open order per product (what a period's reveal waits for). */
    oldestOpenByProduct: () => repo.oldestOpenByProduct(d.db),

    /** See `dashboard`. */
    dashboard: (dayStart: Date) => dashboard(d, now, dayStart),

    /** Placements, exposure and the house's result, real and practice apart (GET /api/ops/house). */
    houseFigures: () => repo.houseFigures(d.db),

    /** Places an order (see placeOnce), counting placements and refusals. */
    async place(
      userId: number,
      body: PlaceOrderBody,
      idempotencyKey?: string,
    ): Promise<{ status: number; body: Order }> {
      try {
        const answer = await placeOnce(d, now, place, userId, body, idempotencyKey);
        d.metrics?.placements.inc({ mode: body.mode });
        return answer;
      } catch (err) {
        if (err instanceof AppError) d.metrics?.refusals.inc({ code: err.code, mode: body.mode });
        throw err;
      }
    },

    /**
     * The stored answer of an earlier placement with this Idempotency-Key (the request a
     * throttle refused may be a retry of it), or null. The same request hash as `place` records.
     */
    stored: (userId: number, body: PlaceOrderBody, key: string) =>
      storedAnswer<Order>(d.db, {
        userId,
        key,
        request: body,
        linked: placedAnswer(present, userId),
      }),

    /** Counts a refusal decided outside `place` (the throttle), beside `place`'s own. */
    refused(code: ErrorCode, mode: TradeMode): void {
      d.metrics?.refusals.inc({ code, mode });
    },

    /** Closes an open order early (sale.ts). */
    sell: sale.sell,

    /** The user's settled orders no device has acknowledged yet, newest first (bounded). */
    async unseenResults(userId: number): Promise<{ items: Order[] }> {
      const since = new Date(now() - UNSEEN_WITHIN_MS);
      const rows = await unseenResults(d.db, userId, { limit: UNSEEN_LIMIT, since });
      return { items: rows.map(present) };
    },

    /**
     * Acknowledges results of the user's own orders (others' and unknown ids are ignored); what
     * changed is told to the user's other devices at once (`results` event), so they clear it.
     */
    async resultsSeen(userId: number, ids: readonly string[]): Promise<{ ids: string[] }> {
      const seen = (await markResultsSeen(d.db, userId, ids.map(Number))).map(String);
      if (seen.length) d.userEvents.emit(userId, 'results', { ids: seen });
      return { ids: seen };
    },

    async get(userId: number, id: number): Promise<Order> {
      const row = await repo.orderOfUser(d.db, userId, id);
      if (!row) throw notFound('No such order');
      return present(row);
    },

    /** One mode's orders (real unless asked): positions and history are per mode. */
    async list(
      userId: number,
      q: { status?: 'open' | 'closed'; mode: TradeMode; limit: number; cursor?: string },
    ) {
      const rows = await repo.ordersOfUser(d.db, userId, {
        status: q.status,
        mode: q.mode,
        limit: q.limit + 1,
        before: q.cursor ? Number(q.cursor) : undefined,
      });
      const page = rows.slice(0, q.limit);
      return {
        items: page.map(present),
        nextCursor: rows.length > q.limit ? String(page.at(-1)!.id) : null,
      };
    },

    /** GET /api/orders/stats (stats.ts): platform days start at 00:00 UTC + the platform offset. */
    stats(userId: number, q: StatsQuery, offsetMinutes = d.offsetMinutes ?? 0) {
      return tradingStats(d.db, userId, q, { offsetMinutes });
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
