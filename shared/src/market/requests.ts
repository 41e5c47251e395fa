import { z } from 'zod';
import { intervals } from '../product';
import { freeText } from '../text';

/** Query schemas of the market endpoints (API.md, Market). */
const epochMs = z.coerce.number().int().min(0).max(8_640_000_000_000_000);

export const productsQuery = z.object({ q: freeText().trim().max(40).optional() });

/** A product id as a client names it; an unknown one is the service's 404. */
const productId = (max: number) => freeText().min(1).max(max);
export const productIdParam = z.object({ id: productId(32) });

export const candlesQuery = z.object({
  product: productId(16),
  interval: z.enum(intervals as [string, ...string[]]),
  limit: z.coerce.number().int().min(1).max(1000).default(300),
  before: epochMs.optional(),
});

export const ticksQuery = z
  .object({
    product: productId(16),
    from: epochMs.optional(),
    to: epochMs.optional(),
    /** Only ticks after this sequence number: pages through a long tape without gaps. */
    after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(500),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'from must not be after to',
    path: ['from'],
  });

/** GET /api/market/fairness: periods overlapping [from, to] (default: the last 24 hours and the ones ahead). */
export const fairnessQuery = z
  .object({
    product: z.string().min(1).max(16),
    from: epochMs.optional(),
    to: epochMs.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'from must not be after to',
    path: ['from'],
  });

export type CandlesQuery = z.infer<typeof candlesQuery>;
export type TicksQuery = z.infer<typeof ticksQuery>;
export type FairnessQuery = z.infer<typeof fairnessQuery>;
