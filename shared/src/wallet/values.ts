/**
 * The value lists of the wallet contract, apart from its types: the answer schemas (answers.ts)
 * build enums from them, and wallet.ts re-exports them, without an import circle.
 */

export const depositChannels = ['bank', 'usdt-trc20', 'usdt-erc20'] as const;

export const depositStatuses = [
  'confirming',
  'pending',
  'approved',
  'rejected',
  'dropped',
] as const;

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
  'order_sale',
  'savings_in',
  'savings_out',
  'savings_confirm',
  'savings_income',
] as const;
