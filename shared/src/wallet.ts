/** GET /api/account/summary and the `balance` socket event. Money in minor units. */
export interface AccountSummary {
  available: number;
  inOrders: number;
  withdrawHold: number;
  savings: number;
  /** Real money only: practice money is never part of it. */
  totalAssets: number;
  /** Real orders only. */
  pnlTotal: number;
  pnlToday: number;
  creditScore: number;
  verified: boolean;
  /** The practice balance (issue 19): its own figures, never added to the real ones. */
  practice: PracticeSummary;
}

/** The practice side of the account summary. */
export interface PracticeSummary {
  available: number;
  inOrders: number;
  /** Practice orders only. */
  pnlTotal: number;
  pnlToday: number;
  /** What a reset sets the practice balance to (PRACTICE_BALANCE). */
  resetTo: number;
}

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
export type DepositChannel =
  | {
      channel: 'bank';
      bankName: string;
      /** Where transfers are addressed to a branch as well (JP). */
      branch?: string;
      /** In the form of `country` (shared/src/bank-account.ts): IBAN, card or account number. */
      cardNumber: string;
      /** The receiving account's country (ISO 3166 alpha-2). */
      country: string;
      holderName: string;
      min: number;
      max: number;
    }
  | {
      channel: 'usdt-trc20' | 'usdt-erc20';
      network: CoinNetwork;
      address: string;
      /** Account currency credited per USDT, a decimal string. */
      rate: string;
      min: number;
      max: number;
    };

export type DepositStatus = 'pending' | 'approved' | 'rejected';

export interface Deposit {
  id: string;
  channel: DepositChannelId;
  /** What is (or will be) credited, in minor units. */
  amount: number;
  /** USDT channels: the quantity sent, in USDT minor units, and the rate applied. */
  quantity?: number;
  rate?: string;
  remark?: string;
  /** The transfer screenshot: GET /api/uploads/:id (its owner and operators only). */
  screenshotId: string;
  status: DepositStatus;
  reason?: string;
  createdAt: number;
  reviewedAt?: number;
}

/** What an operator reviews: the user, what they say they paid from, and the screenshot. */
export interface OpsDeposit extends Deposit {
  userId: string;
  userAccount: string;
  payerBank?: string;
  payerCard?: string;
  payerName?: string;
}

export type WithdrawalAccount =
  | {
      id: string;
      type: 'bank';
      holderName: string;
      nationality: string;
      bankName: string;
      /** Present where the holder's country addresses transfers to a branch (JP). */
      branch?: string;
      cardNumber: string;
      bankAddress?: string;
      createdAt: number;
    }
  | { id: string; type: 'coin'; network: CoinNetwork; address: string; createdAt: number };

export type WithdrawalStatus = 'pending' | 'success' | 'failed';

/** What a withdrawal form needs before the user types (GET /api/withdrawals/rules). */
export interface WithdrawalRules {
  /** Bounds of one withdrawal, minor units. */
  min: number;
  max: number;
  /** Whether a verified identity is needed. */
  requiresKyc: boolean;
}

export interface Withdrawal {
  id: string;
  accountId: string;
  /** The destination, as bound. */
  account: WithdrawalAccount;
  amount: number;
  status: WithdrawalStatus;
  reason?: string;
  createdAt: number;
  reviewedAt?: number;
}

export interface OpsWithdrawal extends Withdrawal {
  userId: string;
  userAccount: string;
}

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
export interface FundRecord {
  id: string;
  type: TransferKind;
  /** Signed: credits positive, debits negative. */
  amount: number;
  balanceAfter: number;
  createdAt: number;
  /** What moved it, e.g. `deposit:12`, `withdrawal:7`. */
  ref: string | null;
}

/** GET /api/ops/ledger/check */
export interface LedgerCheck {
  ok: boolean;
  problems: string[];
}
