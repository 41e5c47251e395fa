import type { StatsRow, TradingStats } from '@shared/orders/stats';

/** The periods offered, in days. */
export const statsPeriods = [7, 30, 90] as const;
export type StatsPeriod = (typeof statsPeriods)[number];

/** A period from the URL (`?days=`), 30 for anything else. */
export function statsPeriodFrom(value: string | null): StatsPeriod {
  const n = Number(value);
  return statsPeriods.find((p) => p === n) ?? 30;
}

/** Every day of the window, oldest first, with its P&L (0 for a day without a closed order). */
export function dailyPnl(stats: Pick<TradingStats, 'from' | 'to' | 'byDay'>) {
  const pnl = new Map(stats.byDay.map((d) => [d.day, d.pnl]));
  const out: { day: string; pnl: number }[] = [];
  const last = Date.parse(`${stats.to}T00:00:00Z`);
  for (let ms = Date.parse(`${stats.from}T00:00:00Z`); ms <= last; ms += 86_400_000) {
    const day = new Date(ms).toISOString().slice(0, 10);
    out.push({ day, pnl: pnl.get(day) ?? 0 });
  }
  return out;
}

/** A win rate decimal string ("0.6667") as a percentage with one decimal ("66.7"); null stays. */
export function winRatePercent(rate: StatsRow['winRate']): number | null {
  return rate === null ? null : Math.round(Number(rate) * 1000) / 10;
}
