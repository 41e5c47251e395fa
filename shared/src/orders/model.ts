import { z } from 'zod';
import type { orderDto, tickRefDto } from '../contract/answers';
import { freeText } from '../text';
import { clockExpiries } from './clock-expiry';

export type Direction = 'up' | 'down';

/**
 * Real money, or practice money (issue 19): a practice balance every user has, which can only
 * ever be staked on practice orders and never becomes real.
 */
export const tradeModes = ['real', 'practice'] as const;
export type TradeMode = (typeof tradeModes)[number];
export type OrderStatus = 'open' | 'won' | 'lost' | 'draw' | 'void' | 'sold';

/**
 * Why an order was void (stake refunded): the feed stalled before expiry (FEED_STALE), or no tick
 * was recorded within the max feed delay after acceptance, so the order never had an entry
 * (NO_ENTRY_TICK).
 */
export type VoidReason = 'FEED_STALE' | 'NO_ENTRY_TICK';

export type TickRef = z.infer<typeof tickRefDto>;

/** The Order DTO of API.md. Money in minor units; `rate` a decimal string ("0.85"). */
export type Order = z.infer<typeof orderDto>;

export const placeOrderBody = z.object({
  productId: freeText().min(1).max(32),
  direction: z.enum(['up', 'down']),
  amount: z.number().int('amount is in minor units (a whole number)').positive(),
  /** Seconds, one of the product's durations; or, instead, `expiry`. */
  duration: z.number().int().positive().optional(),
  /** Ends at the end of this minute or the next (clock-expiry.ts); instead of `duration`. */
  expiry: z.enum(clockExpiries).optional(),
  rate: z
    .string()
    .regex(/^\d(\.\d{1,4})?$/, 'rate is a decimal string such as "0.85"')
    .optional(),
  mode: z.enum(tradeModes).default('real'),
});
export type PlaceOrderBody = z.infer<typeof placeOrderBody>;

export const ordersQuery = z.object({
  status: z.enum(['open', 'closed']).optional(),
  mode: z.enum(tradeModes).default('real'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, 'cursor is not valid')
    .optional(),
});

/**
 * POST /api/orders/:id/sell: the value the seller was shown and how much less they accept (minor
 * units); the sale executes at the first tick after acceptance, refused (SELL_PRICE_CHANGED) when
 * its value is below `expected − tolerance`.
 */
export const sellOrderBody = z.object({
  expected: z.number().int('expected is in minor units (a whole number)').min(0).max(1e13),
  tolerance: z.number().int('tolerance is in minor units (a whole number)').min(0).max(1e13),
});
export type SellOrderBody = z.infer<typeof sellOrderBody>;

/** POST /api/orders/results/seen: the results a device has shown (an order id each, at most 100). */
export const resultsSeenBody = z.object({
  ids: z
    .array(z.string().regex(/^\d{1,18}$/, 'order id is a number'))
    .min(1)
    .max(100),
});

// Rate arithmetic lives without zod in rates.ts (the phone's first screen needs it, not zod).
export { bpToRate, rateToBp, winPayout } from '../rates';
