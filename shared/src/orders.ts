import { z } from 'zod';
import type { orderDto, tickRefDto } from './dto';
import { freeText } from './text';

export type Direction = 'up' | 'down';

/**
 * Real money, or practice money (issue 19): a practice balance every user has, which can only
 * ever be staked on practice orders and never becomes real.
 */
export const tradeModes = ['real', 'practice'] as const;
export type TradeMode = (typeof tradeModes)[number];
export type OrderStatus = 'open' | 'won' | 'lost' | 'draw' | 'void';

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
  duration: z.number().int().positive(),
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

// Rate arithmetic lives without zod in rates.ts (the phone's first screen needs it, not zod).
export { bpToRate, rateToBp, winPayout } from './rates';
