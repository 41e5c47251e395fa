import { z } from 'zod';
import type { chartDrawingDto } from '../contract/answers';

/**
 * Chart drawings (docs/API.md, Drawings): a trader's horizontal lines and trend lines over a
 * product's chart, kept on the server per user and product, so every device of the user shows
 * them. A point is an instant (epoch ms, whole) and a price (a positive decimal string).
 */
export const drawingKinds = ['hline', 'trend'] as const;

/** At most this many drawings per user and product (409 DRAWING_LIMIT past it). */
export const DRAWINGS_PER_PRODUCT = 30;

/** Points' instants lie in this window around now: years of history back, a year ahead. */
export const drawingTimeWindow = { backMs: 10 * 366 * 86_400_000, aheadMs: 366 * 86_400_000 };

/** A price: positive, at most 12 digits before the point and 10 after (the product's decimals at most). */
const PRICE = /^\d{1,12}(\.\d{1,10})?$/;
const price = z
  .string()
  .max(23)
  .regex(PRICE, 'a decimal string such as "67012.35"')
  .refine((p) => Number(p) > 0, 'the price must be above zero')
  .describe('a positive decimal string, at most the product’s decimals');

const time = z
  .int()
  .refine(
    (t) =>
      t >= Date.now() - drawingTimeWindow.backMs && t <= Date.now() + drawingTimeWindow.aheadMs,
    'the time must lie within ten years before and one year after now',
  )
  .describe('epoch milliseconds, a whole number');

export const drawingPoint = z.strictObject({ time, price });

/** A product id as the client names it; an unknown one is the service's 404. */
const product = z.string().min(1).max(16);

/** POST /api/drawings: one point for a horizontal line, two at different times for a trend line. */
export const newDrawingBody = z
  .strictObject({
    product,
    kind: z.enum(drawingKinds),
    points: z.array(drawingPoint).min(1).max(2),
  })
  .superRefine((d, ctx) => {
    const want = d.kind === 'hline' ? 1 : 2;
    if (d.points.length !== want)
      ctx.addIssue({
        code: 'custom',
        path: ['points'],
        message: `a ${d.kind} takes ${want} point${want > 1 ? 's' : ''}`,
      });
    else if (d.kind === 'trend' && d.points[0]!.time === d.points[1]!.time)
      ctx.addIssue({
        code: 'custom',
        path: ['points'],
        message: 'a trend line takes two different times',
      });
  });

export const drawingsQuery = z.strictObject({ product });
export const drawingIdParam = z.object({
  id: z.string().regex(/^\d{1,18}$/, 'drawing id is a number'),
});

export type NewDrawing = z.infer<typeof newDrawingBody>;
export type ChartDrawing = z.infer<typeof chartDrawingDto>;
