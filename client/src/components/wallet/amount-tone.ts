import type { TransferKind } from '@shared/wallet/model';

/**
 * The colour class of a fund record's amount. Credits (a payout, an early close's `order_sale`)
 * are "up" and order debits "down", in the reader's market colours; a debit that is not a market
 * move (a held or paid withdrawal, a transfer into savings) is plain text, so it never reads as
 * a loss.
 */
export function amountTone(kind: TransferKind, amount: number): 'up' | 'down' | 'neutral' | '' {
  if (amount > 0) return 'up';
  if (amount < 0) return kind.startsWith('order_') ? 'down' : 'neutral';
  return '';
}
