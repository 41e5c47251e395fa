import { z } from 'zod';
import { decimal, id, ms, orNull } from '../contract/primitives';

/**
 * Price alerts (docs/API.md, Alerts; DECISIONS, Price alerts: evaluated on the tape, fired once).
 * Prices are decimal strings at the product's precision.
 */
export const alertDirection = z.enum(['above', 'below']);

export const alertTickDto = z
  .object({
    seq: z.int().describe("the tape tick's sequence number"),
    ts: ms.describe("the tick's time"),
    price: decimal.describe("the tick's price"),
  })
  .meta({ id: 'AlertTick' });

export const priceAlertDto = z
  .object({
    id,
    product: z.string().describe('the product id'),
    direction: alertDirection.describe(
      'above: fires at the first tick at or above the price; below: at or below it',
    ),
    price: decimal.describe('the threshold'),
    createdAt: ms,
    fired: orNull(alertTickDto).describe(
      'the tick the alert fired on (the first recorded after its creation that reached the price), null while active',
    ),
    firedAt: ms.nullable().describe('when the server fired it (null while active)'),
  })
  .meta({ id: 'PriceAlert' });

/** GET /api/alerts: the user's active alerts and the recently fired ones. */
export const priceAlertsDto = z
  .object({
    active: z.array(priceAlertDto).describe('oldest first'),
    fired: z.array(priceAlertDto).describe('the most recently fired first (at most 20, of 7 days)'),
    max: z.int().describe('how many active alerts a user may have'),
  })
  .meta({ id: 'PriceAlerts' });
