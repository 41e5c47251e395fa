import { z } from 'zod';
import { decimal, each, id, money, ms, text } from '../contract/primitives';

export const savingsOverviewDto = z
  .object({
    total: money.describe('confirmed + pending, minor units'),
    ...each(money, 'confirmed', 'pending'),
    yesterdayIncome: money.describe(
      'minor units credited at the last cut-off (for the platform day that ended then)',
    ),
    totalIncome: money,
    ...each(money, 'inRemainingToday', 'outRemainingToday'),
    annualRate: decimal.describe('a decimal string: "0.0365" is 3.65 %'),
  })
  .meta({ id: 'SavingsOverview' });
export const savingsRecordDto = z
  .object({
    id,
    type: z.enum(['in', 'out', 'income']),
    amount: money.describe('minor units, always positive: the type says which way it went'),
    day: text.describe(
      'the platform day, YYYY-MM-DD; for income, the day that ended at the cut-off',
    ),
    createdAt: ms.describe('when it happened (income: the cut-off), epoch ms'),
  })
  .meta({ id: 'SavingsRecord' });
