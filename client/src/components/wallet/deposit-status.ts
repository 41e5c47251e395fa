import type { Deposit, DepositStatus } from '@shared/wallet/model';
import type { Tone } from './StatusTag';

/**
 * The text of a deposit's tag: a USDT transfer the network confirmed is "Credited" (no one
 * approved it: it was credited by itself); every other deposit says its status.
 */
export function depositStatusKey(
  d: Pick<Deposit, 'status' | 'source'>,
): 'wallet.deposit.creditedTag' | `wallet.depositStatus.${DepositStatus}` {
  return d.status === 'approved' && d.source === 'chain'
    ? 'wallet.deposit.creditedTag'
    : `wallet.depositStatus.${d.status}`;
}

/** A deposit's state as its tag's tone: still to come, credited, or not credited. */
export const depositTone: Record<DepositStatus, Tone> = {
  confirming: 'pending',
  pending: 'pending',
  approved: 'good',
  rejected: 'bad',
  dropped: 'bad',
};

export interface Confirmations {
  /** Blocks on top of the transfer (its own included), at most `required`. */
  done: number;
  required: number;
  /** 0–100, rounded down: 100 only once every confirmation is in. */
  percent: number;
}

/**
 * How far a transfer read from the chain is confirmed, or null for a deposit with no chain facts
 * (a bank deposit). `fallbackRequired` (the channel's configured confirmations) stands in when the
 * deposit does not say. The network may report more blocks than needed: shown as n/n.
 */
export function confirmationsOf(
  deposit: Pick<Deposit, 'chain'>,
  fallbackRequired?: number,
): Confirmations | null {
  const chain = deposit.chain;
  const required = chain?.requiredConfirmations || fallbackRequired || 0;
  if (!chain || required <= 0) return null;
  const done = Math.min(required, Math.max(0, Math.floor(chain.confirmations)));
  return { done, required, percent: Math.floor((done * 100) / required) };
}
