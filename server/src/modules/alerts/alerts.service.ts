import type { AlertDirection, PriceAlert, PriceAlerts } from '@shared/alerts/model';
import type { MessageParams } from '@shared/content/model';
import { priceToUnits, unitsToPrice } from '@shared/price';
import type { Db } from '@infra/db';
import type { Logger } from '@infra/logger';
import { conflict, notFound, validationFailed } from '@server/platform/http/errors';
import type { UserEvents } from '@server/platform/user-events';
import { announceMessage, writeSystemMessages } from '../content/system-messages';
import type { MarketService } from '../market/market.service';
import * as repo from './alerts.repo';
import { pendingAlerts } from './alerts-pending';

/** How many alerts one evaluation statement fires at most (the pass repeats while it is full). */
const FIRE_BATCH = 500;
/** Fired alerts listed: the newest this many, of this many days. */
const FIRED_LISTED = 20;
const FIRED_DAYS = 7;
/** Every this many passes, pending alerts' scan cursors move up to the tape's end. */
const ADVANCE_EVERY_PASSES = 100;
/** How often the job checks for alerts it was not told of (set by another process, say). */
const PENDING_RECHECK_MS = 2000;

function precisionOf(market: Pick<MarketService, 'spec'>, productId: string): number {
  try {
    return market.spec(productId).precision;
  } catch {
    return 0; // a product that left the catalogue: its units, as stored
  }
}

/** An alert as the API answers it: prices at the product's precision. */
function presentAlert(market: Pick<MarketService, 'spec'>, r: repo.AlertRow): PriceAlert {
  const p = precisionOf(market, r.product_id);
  return {
    id: String(r.id),
    product: r.product_id,
    direction: r.direction,
    price: unitsToPrice(r.threshold, p),
    createdAt: r.created_at.getTime(),
    fired:
      r.fired_seq === null || r.fired_ts === null || r.fired_price === null
        ? null
        : { seq: r.fired_seq, ts: r.fired_ts, price: unitsToPrice(r.fired_price, p) },
    firedAt: r.fired_at ? r.fired_at.getTime() : null,
  };
}

/** A fired alert's message parameters: the product, its tick and the threshold. */
const messageParams = (a: PriceAlert): MessageParams => ({
  product: a.product,
  ref: a.id,
  direction: a.direction,
  threshold: a.price,
  price: a.fired?.price,
  tick: a.fired?.seq,
  at: a.fired?.ts,
});

/** Fires every crossed alert, batch by batch, each with its message; then tells the devices. */
async function fireAll(
  d: { db: Db; userEvents: UserEvents },
  present: (r: repo.AlertRow) => PriceAlert,
): Promise<PriceAlert[]> {
  const all: PriceAlert[] = [];
  for (;;) {
    const done = await d.db.transaction(async (tx) => {
      const rows = await repo.fireCrossed(tx, FIRE_BATCH);
      const alerts = rows.map(present);
      const messages = await writeSystemMessages(
        tx,
        rows.map((r, i) => ({
          userId: r.user_id,
          kind: 'price_alert' as const,
          params: messageParams(alerts[i]!),
        })),
      );
      return { rows, alerts, messages };
    });
    done.rows.forEach((r, i) => {
      d.userEvents.emit(r.user_id, 'alert', done.alerts[i]!);
      announceMessage(d.userEvents, done.messages[i]!);
    });
    all.push(...done.alerts);
    if (done.rows.length < FIRE_BATCH) break;
  }
  return all;
}

/**
 * Price alerts (DECISIONS, Price alerts: evaluated on the tape, fired once). The server, not the
 * client, evaluates them: an alert fires at the first tick recorded on the tape after its
 * creation whose price is at/above (above) or at/below (below) its threshold, once, with a
 * system message written in the firing transaction, then an `alert` and a `message` event.
 */
export function createAlertsService(d: {
  db: Db;
  market: Pick<MarketService, 'spec' | 'latestTick'>;
  userEvents: UserEvents;
  /** Active alerts a user may have (PRICE_ALERTS_MAX). */
  max: number;
}) {
  const present = (r: repo.AlertRow) => presentAlert(d.market, r);
  let passes = 0;
  const pending = pendingAlerts(PENDING_RECHECK_MS);

  /**
   * One evaluation pass: fires every pending alert the tape has crossed (set-based, in
   * batches), writes their messages in the same transaction, then tells the users' devices.
   * Safe to run in any number of processes at once. Returns the alerts fired.
   */
  const evaluate = async (): Promise<PriceAlert[]> => {
    const all = await fireAll(d, present);
    if (all.length) pending.mayBeNone();
    if (++passes % ADVANCE_EVERY_PASSES === 0) await repo.advanceScanned(d.db);
    return all;
  };

  return {
    max: d.max,

    async list(userId: number, productId: string | undefined): Promise<PriceAlerts> {
      const product = productId === undefined ? null : d.market.spec(productId).id;
      const rows = await repo.alertsOf(d.db, userId, product, FIRED_LISTED, FIRED_DAYS);
      return { active: rows.active.map(present), fired: rows.fired.map(present), max: d.max };
    },

    /**
     * Sets an alert. 404 NOT_FOUND for a product not in the catalogue; 400 VALIDATION_FAILED
     * (field `price`) for a price with more decimals than the product's or not above zero; 409
     * QUOTE_STALE when the product has no price yet; 409 ALERT_ALREADY_MET when the current
     * price already satisfies it (an above alert must be above the price, a below one below it);
     * 409 ALERT_LIMIT when the user already has `max` active alerts. Only ticks after the
     * product's last known tick (on the tape or heard on the bus) can fire it.
     */
    async create(
      userId: number,
      body: { product: string; direction: AlertDirection; price: string },
    ): Promise<PriceAlert> {
      const spec = d.market.spec(body.product);
      let threshold: number;
      try {
        threshold = priceToUnits(body.price, spec.precision);
      } catch {
        throw validationFailed(
          'price',
          `price must have at most ${spec.precision} decimals and fit the product`,
        );
      }
      if (threshold <= 0) throw validationFailed('price', 'price must be above zero');
      const row = await d.db.transaction(async (tx) => {
        const tape = await repo.lastTapeTick(tx, spec.id);
        const live = d.market.latestTick(spec.id);
        const liveUnits = live ? priceToUnits(live.price, spec.precision) : null;
        const current =
          live && liveUnits !== null && (!tape || live.seq > tape.seq)
            ? { seq: live.seq, price: liveUnits }
            : tape;
        if (!current) throw conflict('QUOTE_STALE', 'The product has no price yet');
        const met =
          body.direction === 'above' ? current.price >= threshold : current.price <= threshold;
        if (met) {
          throw conflict(
            'ALERT_ALREADY_MET',
            `The price ${unitsToPrice(current.price, spec.precision)} is already ${
              body.direction === 'above' ? 'at or above' : 'at or below'
            } ${body.price}`,
            'price',
          );
        }
        if ((await repo.lockAndCountActive(tx, userId)) >= d.max)
          throw conflict('ALERT_LIMIT', `At most ${d.max} active price alerts`);
        return repo.insertAlert(tx, {
          userId,
          productId: spec.id,
          direction: body.direction,
          threshold,
          createdSeq: current.seq,
        });
      });
      pending.added();
      return present(row);
    },

    /** Deletes one of the user's alerts; 404 NOT_FOUND for an id that is not theirs. */
    async remove(userId: number, id: string): Promise<void> {
      if (!(await repo.deleteAlert(d.db, userId, id))) throw notFound('No such alert');
      pending.mayBeNone();
    },

    evaluate,

    /**
     * The job's pass: `evaluate`, unless no alert is pending (known without a statement while
     * none is, for up to PENDING_RECHECK_MS; one cheap probe then).
     */
    async evaluatePending(): Promise<PriceAlert[]> {
      if (!(await pending.worthEvaluating(() => repo.anyPending(d.db)))) return [];
      return evaluate();
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;

/**
 * Every api process evaluates the pending alerts every `everyMs` (ALERT_EVALUATE_MS; 0: never),
 * with no statement while none is pending (alerts-pending.ts). The firing statement is
 * conditional, so processes evaluating at once never fire one twice.
 */
export function startAlertJob(alerts: AlertsService, everyMs: number, log?: Logger) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const next = () => {
    timer = setTimeout(() => {
      running = alerts
        .evaluatePending()
        .catch((err: unknown) =>
          log?.warn({ err: (err as Error).message }, 'price alert evaluation failed'),
        )
        .finally(() => {
          if (!stopped) next();
        });
    }, everyMs);
  };
  if (everyMs > 0) next();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
