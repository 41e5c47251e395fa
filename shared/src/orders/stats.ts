import { z } from 'zod';
import { money } from '../contract/primitives';
import { tradeModes } from './model';

/**
 * GET /api/orders/stats: the caller's closed orders of one mode (real unless asked) settled in
 * the last `days` platform days (today included), in figures: overall, by product, by duration
 * and by day.
 */
export const statsQuery = z.object({
  mode: z.enum(tradeModes).default('real'),
  days: z.coerce.number().int().min(1).max(90).default(30),
});
export type StatsQuery = z.infer<typeof statsQuery>;

const count = z.int().min(0);

/** One group's figures (the same fields for every group). */
const statsRow = {
  orders: count.describe('closed orders'),
  won: count,
  lost: count,
  draw: count,
  void: count,
  sold: count,
  winRate: z
    .string()
    .nullable()
    .describe('won / (won + lost), a decimal string with 4 places ("0.6667"); null when neither'),
  stake: money.describe('the stakes, summed'),
  payout: money.describe('what was paid back (payouts, refunds, sale values), summed'),
  pnl: money.describe('payout − stake: what the ledger moved to and from the user'),
  averageStake: money.describe('floor(stake / orders); 0 with no orders'),
};

export const statsRowDto = z.object(statsRow).meta({ id: 'StatsRow' });

export const tradingStatsDto = z
  .object({
    mode: z.enum(tradeModes),
    from: z.string().describe('the first platform day counted, YYYY-MM-DD'),
    to: z.string().describe('the last platform day counted (today), YYYY-MM-DD'),
    overall: statsRowDto,
    byProduct: z
      .array(z.object({ productId: z.string(), ...statsRow }))
      .describe('the products traded, most orders first'),
    byDuration: z
      .array(z.object({ duration: z.int().describe('seconds'), ...statsRow }))
      .describe('the durations traded, shortest first'),
    byDay: z
      .array(z.object({ day: z.string().describe('YYYY-MM-DD, platform day'), ...statsRow }))
      .describe('the days with closed orders, oldest first'),
  })
  .meta({ id: 'TradingStats' });

export type StatsRow = z.infer<typeof statsRowDto>;
export type TradingStats = z.infer<typeof tradingStatsDto>;
