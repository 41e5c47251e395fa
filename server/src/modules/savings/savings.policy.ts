import type { Config } from '@server/config';
import { dayKey } from '@server/platform/clock';

/**
 * The savings rules that are figures (DECISIONS.md, Savings): the annual rate, the daily limits,
 * and the platform day. Pure: no database, no clock of its own.
 */
export interface SavingsPolicy {
  /** The configured annual rate as given ("0.0365"), shown to users. */
  annualRate: string;
  /** The same rate as an exact fraction: numerator / denominator. */
  rate: { num: bigint; den: bigint };
  dailyIn: number;
  dailyOut: number;
  offsetMinutes: number;
}

const DAY = 86_400_000;

/** "0.0365" → 365 / 10000, exactly (no floating point anywhere near money). */
export function parseRate(rate: string): { num: bigint; den: bigint } {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(rate);
  if (!m) throw new RangeError(`not a decimal rate: ${rate}`);
  const frac = m[2] ?? '';
  return { num: BigInt(`${m[1]}${frac}`), den: 10n ** BigInt(frac.length) };
}

export function savingsPolicy(
  config: Pick<
    Config,
    'SAVINGS_ANNUAL_RATE' | 'SAVINGS_DAILY_IN' | 'SAVINGS_DAILY_OUT' | 'PLATFORM_UTC_OFFSET_MINUTES'
  >,
): SavingsPolicy {
  return {
    annualRate: config.SAVINGS_ANNUAL_RATE,
    rate: parseRate(config.SAVINGS_ANNUAL_RATE),
    dailyIn: config.SAVINGS_DAILY_IN,
    dailyOut: config.SAVINGS_DAILY_OUT,
    offsetMinutes: config.PLATFORM_UTC_OFFSET_MINUTES,
  };
}

/** One day's income on `base` minor units: base × rate / 365, rounded down to the cent. */
export function dailyIncome(base: number, rate: SavingsPolicy['rate']): number {
  return Number((BigInt(base) * rate.num) / (rate.den * 365n));
}

/** The platform day (YYYY-MM-DD) of `ts`. */
export const platformDay = (ts: number, policy: Pick<SavingsPolicy, 'offsetMinutes'>) =>
  dayKey(ts, policy.offsetMinutes);

/** `day` moved by `n` days: addDays('2026-02-28', 1) = '2026-03-01'. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
}

/** The cut-off that ends `day`: 00:00 platform time of the next day, epoch ms. */
export function cutoffOf(day: string, policy: Pick<SavingsPolicy, 'offsetMinutes'>): number {
  return Date.parse(`${day}T00:00:00Z`) + DAY - policy.offsetMinutes * 60_000;
}
