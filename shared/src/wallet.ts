import type { z } from 'zod';
import type * as dto from './dto';

/** GET /api/account/summary and the `balance` socket event. Money in minor units. */
export type AccountSummary = z.infer<typeof dto.accountSummaryDto>;

/** A page of a list endpoint: `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const depositChannels = ['bank', 'usdt-trc20', 'usdt-erc20'] as const;
export type DepositChannelId = (typeof depositChannels)[number];
export type CoinNetwork = 'TRC20' | 'ERC20';

/** Bounds of one deposit, in credited minor units (10.00 … 1 000 000.00). */
export const depositLimits = { min: 1000, max: 100_000_000 } as const;

/** GET /api/deposits/channels: the platform's receiving details, shown with a QR code. */
export type DepositChannel = z.infer<typeof dto.depositChannelDto>;

export type DepositStatus = 'pending' | 'approved' | 'rejected';

export type Deposit = z.infer<typeof dto.depositDto>;
/** What an operator reviews: the user, what they say they paid from, and the screenshot. */
export type OpsDeposit = z.infer<typeof dto.opsDepositDto>;

export type WithdrawalAccount = z.infer<typeof dto.withdrawalAccountDto>;

export type WithdrawalStatus = 'pending' | 'success' | 'failed';

/** What a withdrawal form needs before the user types (GET /api/withdrawals/rules). */
export type WithdrawalRules = z.infer<typeof dto.withdrawalRulesDto>;
export type Withdrawal = z.infer<typeof dto.withdrawalDto>;
export type OpsWithdrawal = z.infer<typeof dto.opsWithdrawalDto>;

/** Ledger transfer kinds; a fund record's `type` is the kind of the transfer that moved it. */
export const transferKinds = [
  'deposit',
  'withdraw_hold',
  'withdraw_release',
  'withdraw_paid',
  'order_stake',
  'order_payout',
  'order_refund',
  'order_loss',
  'savings_in',
  'savings_out',
  'savings_confirm',
  'savings_income',
] as const;
export type TransferKind = (typeof transferKinds)[number];

/** GET /api/wallet/ledger: one movement of the available balance. */
export type FundRecord = z.infer<typeof dto.fundRecordDto>;

/** GET /api/ops/ledger/check */
export type LedgerCheck = z.infer<typeof dto.ledgerCheckDto>;
