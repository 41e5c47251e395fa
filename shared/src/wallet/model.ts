import type { z } from 'zod';
import type * as dto from './answers';
import { depositChannels, depositStatuses, transferKinds } from './values';

export { depositChannels, depositStatuses, transferKinds };

/** GET /api/account/summary and the `balance` socket event. Money in minor units. */
export type AccountSummary = z.infer<typeof dto.accountSummaryDto>;

/** A page of a list endpoint: `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export type DepositChannelId = (typeof depositChannels)[number];
export type CoinNetwork = 'TRC20' | 'ERC20';

/**
 * A USDT deposit's on-chain transaction id: TRC20 (TRON) ids are 64 hex digits, ERC20
 * (Ethereum) ids are 0x and 64 hex digits. Stored in lower case (hex has no case).
 */
export const txIdPatterns: Record<CoinNetwork, RegExp> = {
  TRC20: /^[0-9a-fA-F]{64}$/,
  ERC20: /^0x[0-9a-fA-F]{64}$/,
};
export const networkOfChannel = (c: Exclude<DepositChannelId, 'bank'>): CoinNetwork =>
  c === 'usdt-trc20' ? 'TRC20' : 'ERC20';
/** The id as stored: trimmed, lower case (an ERC20 id keeps its 0x). */
export const normalizeTxId = (v: string) => v.trim().toLowerCase().replace(/^0X/, '0x');
/**
 * A transaction's hash in the one form both networks' ids are compared in: 64 lower-case hex
 * digits without 0x, so `0xabc…` (ERC20) and `abc…` (TRC20) name the same transaction.
 */
/** A transaction on the networks' public block explorers (Etherscan, Tronscan). */
export function explorerUrl(network: CoinNetwork, txHash: string): string {
  return network === 'ERC20'
    ? `https://etherscan.io/tx/0x${txHash}`
    : `https://tronscan.org/#/transaction/${txHash}`;
}
export const txHashOf = (txId: string) => normalizeTxId(txId).replace(/^0x/, '');

/**
 * When money is expected to arrive (DECISIONS.md, Arrival times), shown on the channel cards and
 * the withdrawal quote. A bank transfer is credited within 30 minutes of its review; a USDT one
 * by itself once the network has confirmed it (TRON about one block each 3 s, Ethereum each
 * 12 s). The confirmations here are the defaults; the channels endpoint says the configured ones.
 */
export const depositArrival = {
  bank: { withinMinutes: 30 },
  'usdt-trc20': { confirmations: 20, withinMinutes: 5 },
  'usdt-erc20': { confirmations: 12, withinMinutes: 10 },
} as const satisfies Record<DepositChannelId, { withinMinutes: number; confirmations?: number }>;
/** A withdrawal is paid within this long of being asked for (review included). */
export const withdrawalArrival = {
  bank: { withinMinutes: 24 * 60 },
  coin: { withinMinutes: 60 },
} as const;

/**
 * The fee of a withdrawal of `amount` minor units: `bps` basis points of it, rounded down, never
 * below `min` (WITHDRAW_FEE_BPS, WITHDRAW_FEE_MIN). The fee is part of the amount.
 */
export function withdrawalFee(amount: number, fee: { bps: number; min: number }): number {
  return Math.max(fee.min, Math.floor((amount * fee.bps) / 10_000));
}

/** Bounds of one deposit, in credited minor units (10.00 … 1 000 000.00). */
export const depositLimits = { min: 1000, max: 100_000_000 } as const;

/** GET /api/deposits/channels: the platform's receiving details, shown with a QR code. */
export type DepositChannel = z.infer<typeof dto.depositChannelDto>;

export type DepositStatus = (typeof depositStatuses)[number];

export type Deposit = z.infer<typeof dto.depositDto>;
/** What an operator reviews: the user, what they say they paid from, and the screenshot. */
export type OpsDeposit = z.infer<typeof dto.opsDepositDto>;

export type WithdrawalAccount = z.infer<typeof dto.withdrawalAccountDto>;

export type WithdrawalStatus = 'pending' | 'success' | 'failed';

/** What a withdrawal form needs before the user types (GET /api/withdrawals/rules). */
export type WithdrawalRules = z.infer<typeof dto.withdrawalRulesDto>;
export type Withdrawal = z.infer<typeof dto.withdrawalDto>;
/** GET /api/withdrawal-accounts/holder */
export type WithdrawalHolder = z.infer<typeof dto.withdrawalHolderDto>;
/** GET /api/withdrawals/quote */
export type WithdrawalQuote = z.infer<typeof dto.withdrawalQuoteDto>;
export type OpsWithdrawal = z.infer<typeof dto.opsWithdrawalDto>;

export type TransferKind = (typeof transferKinds)[number];

/** GET /api/wallet/ledger: one movement of the available balance. */
export type FundRecord = z.infer<typeof dto.fundRecordDto>;

/** GET /api/ops/ledger/check */
export type LedgerCheck = z.infer<typeof dto.ledgerCheckDto>;
