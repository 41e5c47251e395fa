import { z } from 'zod';
import { tickRefDto } from '../market/answers';
import { decimal, each, id, money, ms, orNull, text } from '../contract/primitives';

/**
 * An early close's inputs and value (docs/FAIRNESS.md, Early close): S is the sale tick's price
 * (the order's `exit`), K the entry's, τ = `msLeft` in years; `value` = the payout.
 */
export const saleDto = z
  .object({
    requestedAt: ms.describe(
      'when the sell was accepted (database clock): the sale tick is the first after it',
    ),
    msLeft: z.int().describe("expiry − the sale tick's time, ms"),
    annualVol: z.number().describe('σ, as the product published it'),
    spreadBp: z.int(),
    value: money.describe('floor(payout × P(win) × (1 − spread)): what the sale paid'),
  })
  .meta({ id: 'Sale' });

export const orderDto = z
  .object({
    id,
    mode: z.enum(['real', 'practice']).describe('practice orders stake practice money only'),
    productId: text,
    direction: z.enum(['up', 'down']),
    amount: money,
    duration: z.int().describe('seconds (an order at a clock time: the whole seconds it had left)'),
    expiry: z
      .enum(['minute_end', 'next_minute_end'])
      .nullable()
      .describe('an order at a clock time: which minute it ends at; null for a duration order'),
    rate: decimal,
    status: z.enum(['open', 'won', 'lost', 'draw', 'void', 'sold']),
    entry: orNull(tickRefDto).describe(
      'the first tick recorded after acceptance; null until it is recorded, and on a NO_ENTRY_TICK void',
    ),
    exit: orNull(tickRefDto).describe(
      'the last tick at or before expiry; on a sold order, the sale tick (the first recorded after the sell was accepted)',
    ),
    ...each(money.nullable(), 'payout', 'pnl'),
    ...each(ms, 'createdAt', 'expiresAt'),
    settledAt: ms.nullable(),
    voidReason: text.nullable().describe('FEED_STALE or NO_ENTRY_TICK when void'),
    sale: orNull(saleDto).describe(
      'on a sold order: the early close, with every input of its value',
    ),
  })
  .meta({ id: 'Order' });

export const unseenResultsDto = z
  .object({
    items: z
      .array(orderDto)
      .describe(
        'settled orders no device has acknowledged, newest first (at most 20, last 7 days)',
      ),
  })
  .meta({ id: 'UnseenResults' });

export const resultsSeenDto = z
  .object({
    ids: z
      .array(id)
      .describe(
        'the ids this request acknowledged; those already seen, unknown or not yours are not listed',
      ),
  })
  .meta({ id: 'ResultsSeen' });
