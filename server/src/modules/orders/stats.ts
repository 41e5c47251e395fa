import type { StatsQuery, StatsRow, TradingStats } from '@shared/orders/stats';
import type { Queryable } from '@infra/db';
import { dayKey, dayStart } from '@server/platform/clock';
import { statsGroups, type StatsGroupRow } from './stats.repo';

const DAY = 86_400_000;

/** won / (won + lost) with 4 decimal places, rounded half up; null when neither happened. */
export function winRate(won: number, lost: number): string | null {
  const decided = won + lost;
  if (decided === 0) return null;
  const q = Math.floor((won * 20_000 + decided) / (2 * decided));
  return `${Math.floor(q / 10_000)}.${String(q % 10_000).padStart(4, '0')}`;
}

function row(g: StatsGroupRow): StatsRow {
  const stake = Number(g.stake);
  const payout = Number(g.payout);
  return {
    orders: g.orders,
    won: g.won,
    lost: g.lost,
    draw: g.draw,
    void: g.void,
    sold: g.sold,
    winRate: winRate(g.won, g.lost),
    stake,
    payout,
    pnl: payout - stake,
    averageStake: g.orders ? Math.floor(stake / g.orders) : 0,
  };
}

const empty: StatsGroupRow = {
  grp: 'all',
  product_id: null,
  duration: null,
  day: null,
  ...{ orders: 0, won: 0, lost: 0, draw: 0, void: 0, sold: 0, stake: '0', payout: '0' },
};

/**
 * GET /api/orders/stats: the user's closed orders of `q.mode` settled since 00:00 of the platform
 * day `q.days − 1` days before today (PLATFORM_UTC_OFFSET_MINUTES), measured on the wall clock as
 * the account summary's "today" is (orders are settled at the database's real time).
 */
export async function tradingStats(
  db: Queryable,
  userId: number,
  q: StatsQuery,
  day: { offsetMinutes: number; now?: () => number },
): Promise<TradingStats> {
  const now = (day.now ?? Date.now)();
  const since = dayStart(now, day.offsetMinutes) - (q.days - 1) * DAY;
  const groups = await statsGroups(db, userId, {
    mode: q.mode,
    since: new Date(since),
    offsetMinutes: day.offsetMinutes,
  });
  const of = (grp: StatsGroupRow['grp']) => groups.filter((g) => g.grp === grp);
  return {
    mode: q.mode,
    from: dayKey(since, day.offsetMinutes),
    to: dayKey(now, day.offsetMinutes),
    overall: row(of('all')[0] ?? empty),
    byProduct: of('product')
      .map((g) => ({ productId: g.product_id!, ...row(g) }))
      .sort((a, b) => b.orders - a.orders || a.productId.localeCompare(b.productId)),
    byDuration: of('duration')
      .map((g) => ({ duration: Number(g.duration), ...row(g) }))
      .sort((a, b) => a.duration - b.duration),
    byDay: of('day')
      .map((g) => ({ day: g.day!, ...row(g) }))
      .sort((a, b) => a.day.localeCompare(b.day)),
  };
}
