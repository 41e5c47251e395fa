import {
  explorerUrl,
  networkOfChannel,
  type Deposit,
  type FundRecord,
  type OpsDeposit,
  type TransferKind,
  type OpsWithdrawal,
  type Withdrawal,
  type WithdrawalAccount,
} from '@shared/wallet/model';
import type { DepositRow } from './deposit.repo';
import type { TransferKind as LedgerKind } from '../ledger/ledger';
import type { FundRecordRow } from './wallet.repo';
import type { WithdrawalAccountRow, WithdrawalRow } from './withdrawal.repo';

/** Database rows never leave the server: these map them to the shared DTOs. */

// Fund record types are the ledger's transfer kinds; the shared list (which the `type` filter
// accepts) must name the same ones, or this stops compiling. The practice balance's own
// transfers are no fund records: fund records show the real available balance only.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _kindsInStep: Same<
  Exclude<LedgerKind, 'practice_open' | 'practice_reset'>,
  TransferKind
> = true;

const reviewed = (at: Date | null) => (at ? { reviewedAt: at.getTime() } : {});
/** An optional text field of answer T: the key must be one of T's, so renaming it in the answer
 * schema stops this file compiling (a spread object is not checked for unknown keys). */
type KeyOfAny<T> = T extends unknown ? keyof T : never;
const optionalOf =
  <T>() =>
  <K extends KeyOfAny<T> & string>(key: K, value: string | null | undefined) =>
    (value ? { [key]: value } : {}) as Partial<Record<K, string>>;
const depositField = optionalOf<Deposit>();
const accountField = optionalOf<WithdrawalAccount>();
const withdrawalField = optionalOf<Withdrawal>();

export function presentDeposit(d: DepositRow): Deposit {
  return {
    id: String(d.id),
    channel: d.channel,
    amount: d.amount,
    ...(d.quantity !== null ? { quantity: d.quantity } : {}),
    ...depositField('rate', d.rate),
    ...depositField('remark', d.remark),
    ...depositField('screenshotId', d.screenshot_id),
    ...depositField('txId', d.tx_id),
    ...(d.resubmitted_from !== null ? { resubmittedFrom: String(d.resubmitted_from) } : {}),
    source: d.source,
    ...(d.channel !== 'bank' && d.block_number !== null && d.tx_hash
      ? {
          chain: {
            fromAddress: d.from_address ?? '',
            toAddress: d.to_address ?? '',
            blockNumber: Number(d.block_number),
            logIndex: d.log_index ?? 0,
            confirmations: d.confirmations ?? 0,
            requiredConfirmations: d.required_confirmations ?? 0,
            explorerUrl: explorerUrl(networkOfChannel(d.channel), d.tx_hash),
          },
        }
      : {}),
    ...depositField('payerBank', d.payer_bank),
    ...depositField('payerCard', d.payer_card),
    ...depositField('payerName', d.payer_name),
    status: d.status,
    ...depositField('reason', d.reason),
    createdAt: d.created_at.getTime(),
    ...reviewed(d.reviewed_at),
  };
}

export function presentOpsDeposit(d: DepositRow): OpsDeposit {
  return {
    ...presentDeposit(d),
    userId: String(d.user_id),
    userAccount: d.user_account ?? '',
  };
}

export function presentWithdrawalAccount(a: WithdrawalAccountRow): WithdrawalAccount {
  const base = {
    id: String(a.id),
    createdAt: a.created_at.getTime(),
    usableAt: a.usable_at.getTime(),
  };
  if (a.type === 'coin') return { ...base, type: 'coin', network: a.network!, address: a.address! };
  return {
    ...base,
    type: 'bank',
    holderName: a.holder_name!,
    nationality: a.nationality!,
    bankName: a.bank_name!,
    ...accountField('branch', a.branch),
    cardNumber: a.card_number!,
    ...accountField('bankAddress', a.bank_address),
  };
}

export function presentWithdrawal(w: WithdrawalRow): Withdrawal {
  return {
    id: String(w.id),
    accountId: String(w.account_id),
    account: presentWithdrawalAccount(w.account),
    amount: w.amount,
    fee: w.fee,
    receive: w.amount - w.fee,
    status: w.status,
    ...withdrawalField('reason', w.reason),
    createdAt: w.created_at.getTime(),
    ...reviewed(w.reviewed_at),
  };
}

export function presentOpsWithdrawal(w: WithdrawalRow): OpsWithdrawal {
  return { ...presentWithdrawal(w), userId: String(w.user_id), userAccount: w.user_account ?? '' };
}

export function presentFundRecord(r: FundRecordRow): FundRecord {
  return {
    id: String(r.id),
    type: r.kind,
    amount: r.amount,
    balanceAfter: r.balance_after,
    createdAt: r.created_at.getTime(),
    ref: r.ref,
  };
}
