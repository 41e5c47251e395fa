import { z } from 'zod';
import { tickRefDto } from './market';
import { decimal, each, id, money, ms, orNull, text } from './primitives';

export const orderDto = z
  .object({
    id,
    mode: z.enum(['real', 'practice']).describe('practice orders stake practice money only'),
    productId: text,
    direction: z.enum(['up', 'down']),
    amount: money,
    duration: z.int().describe('seconds'),
    rate: decimal,
    status: z.enum(['open', 'won', 'lost', 'draw', 'void']),
    entry: orNull(tickRefDto).describe(
      'the first tick recorded after acceptance; null until it is recorded, and on a NO_ENTRY_TICK void',
    ),
    exit: orNull(tickRefDto),
    ...each(money.nullable(), 'payout', 'pnl'),
    ...each(ms, 'createdAt', 'expiresAt'),
    settledAt: ms.nullable(),
    voidReason: text.nullable().describe('FEED_STALE or NO_ENTRY_TICK when void'),
  })
  .meta({ id: 'Order' });
