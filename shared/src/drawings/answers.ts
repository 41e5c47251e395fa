import { z } from 'zod';
import { decimal, id, ms, text } from '../contract/primitives';

/** One chart drawing of the user (GET/POST /api/drawings). */
export const chartDrawingDto = z
  .object({
    id,
    product: text,
    kind: z.enum(['hline', 'trend']),
    points: z
      .array(z.object({ time: ms, price: decimal }))
      .describe('one for a horizontal line; two for a trend line, the earlier first'),
    createdAt: ms,
  })
  .meta({ id: 'ChartDrawing' });

/** A product's drawings of the user, the oldest first. */
export const chartDrawingsDto = z
  .object({ items: z.array(chartDrawingDto) })
  .meta({ id: 'ChartDrawings' });
