import { z } from 'zod';
import { AMOUNT_MAX } from '../amount-input';
import type { savingsOverviewDto, savingsRecordDto, testClockStateDto } from '../contract/answers';

/**
 * The savings balance ("Yu'ebao", product DECISIONS.md): transfers in and out of the available
 * balance, pending and confirmed shares, daily income. Money in minor units.
 */

/** Bounds of one transfer in or out, in minor units: 1.00 … the amount input's maximum. */
export const savingsLimits = { min: 100, max: AMOUNT_MAX * 100 } as const;

/** GET /api/savings */
export type SavingsOverview = z.infer<typeof savingsOverviewDto>;

export type SavingsRecordType = 'in' | 'out' | 'income';

/** One line of GET /api/savings/records, and the answer of a transfer in or out. */
export type SavingsRecord = z.infer<typeof savingsRecordDto>;

/** POST /api/savings/in and /api/savings/out. Range is the server's rule (AMOUNT_OUT_OF_RANGE). */
export const savingsTransferBody = z.object({
  amount: z
    .int({ error: 'amount must be a whole number of minor units' })
    .min(0, { error: 'amount must not be negative' }),
  /** Real money only: `practice` is refused with 400 PRACTICE_NOT_ALLOWED. */
  mode: z
    .enum(['real', 'practice'])
    .optional()
    .describe('real only: practice money is refused with 400 PRACTICE_NOT_ALLOWED'),
});
export type SavingsTransferBody = z.infer<typeof savingsTransferBody>;

/** POST /api/test/clock (only on a server started with TEST_CLOCK=1). */
export const testClockBody = z.object({
  advanceMs: z
    .int({ error: 'advanceMs must be a whole number of milliseconds' })
    .min(0, { error: 'the clock only moves forward' })
    .max(366 * 86_400_000, { error: 'advanceMs is at most a year' }),
});

/** The test clock's answer: its time now and the next daily cut-off. */
export type TestClockState = z.infer<typeof testClockStateDto>;
