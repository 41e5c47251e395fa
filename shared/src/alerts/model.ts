import { z } from 'zod';
import type * as dto from './answers';
import { freeText } from '../text';

/** Price alerts: types and request schemas (docs/API.md, Alerts). */

export type AlertDirection = 'above' | 'below';
export type PriceAlert = z.infer<typeof dto.priceAlertDto>;
export type PriceAlerts = z.infer<typeof dto.priceAlertsDto>;

/** A threshold as typed: digits, optionally a point and digits (the product's decimals: the service). */
export const ALERT_PRICE_RE = /^\d{1,15}(?:\.\d{1,15})?$/;

export const createAlertBody = z.object({
  product: freeText().min(1, 'product is required').max(32),
  direction: z.enum(['above', 'below'], { error: 'direction must be above or below' }),
  price: z
    .string({ error: 'price must be a decimal string' })
    .max(32, 'price is too long')
    .regex(ALERT_PRICE_RE, 'price must be a positive decimal such as 60000.50'),
});

export const alertParams = z.object({
  id: z.string().regex(/^\d{1,18}$/, 'id must be digits'),
});

export const alertsQuery = z.object({
  product: freeText().min(1).max(32).optional(),
});
