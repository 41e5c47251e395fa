import type {
  Deposit,
  DepositChannel,
  DepositChannelId,
  FundRecord,
  Page,
  TransferKind,
  Withdrawal,
  WithdrawalAccount,
  WithdrawalHolder,
  WithdrawalRules,
} from '@shared/wallet/model';
import type { WithdrawalAccountBody } from '@shared/wallet/requests';
import * as wallet from '@shared/wallet/routes';
import * as uploads from '@shared/uploads/routes';
import { call, download, upload } from './client';

/** The wallet endpoints of API.md (Wallet). Money in minor units throughout. */

export interface PageRequest {
  cursor?: string | null;
  limit?: number;
}

/** A page request as the endpoints take it: no cursor on the first page. */
const pageQuery = ({ cursor, limit }: PageRequest) => ({ cursor: cursor ?? undefined, limit });

export interface UploadProgress {
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

export type DepositFields =
  | {
      channel: 'bank';
      amount: number;
      payerBank: string;
      payerCard: string;
      payerName: string;
      remark?: string;
      resubmitOf?: string;
    }
  | {
      /** A USDT transfer that did not arrive: the server reads its amount from the chain. */
      channel: Exclude<DepositChannelId, 'bank'>;
      txId: string;
      remark?: string;
      resubmitOf?: string;
    };

export function getDepositChannels(signal?: AbortSignal): Promise<DepositChannel[]> {
  return call(wallet.depositChannels, {}, { signal });
}

/**
 * Sends a deposit with its transfer screenshot (required for bank, optional for USDT) as
 * multipart. The Idempotency-Key is made once per filled-in form, so a retry after a lost answer
 * cannot record the deposit twice.
 */
export function createDeposit(
  fields: DepositFields,
  screenshot: Blob | null,
  idempotencyKey: string,
  options: UploadProgress = {},
) {
  const files = screenshot ? { screenshot } : {};
  return upload(wallet.createDeposit, fields, files, { ...options, idempotencyKey });
}

/** The user's deposits, newest first; of one channel when `channel` is given. */
export function listDeposits(
  page: PageRequest & { channel?: DepositChannelId },
  signal?: AbortSignal,
): Promise<Page<Deposit>> {
  const query = { ...pageQuery(page), channel: page.channel };
  return call(wallet.deposits, { query }, { signal });
}

export function listWithdrawalAccounts(signal?: AbortSignal): Promise<WithdrawalAccount[]> {
  return call(wallet.withdrawalAccounts, {}, { signal });
}

export function getWithdrawalAccount(id: string, signal?: AbortSignal): Promise<WithdrawalAccount> {
  return call(wallet.withdrawalAccount, { params: { id } }, { signal });
}

/** The verified identity's name, which a bank account is bound in (null before verification). */
export function getWithdrawalHolder(signal?: AbortSignal): Promise<WithdrawalHolder> {
  return call(wallet.withdrawalHolder, {}, { signal });
}

/** 201 the bound account; 409 ACCOUNT_ALREADY_BOUND once that type is bound. */
export function bindWithdrawalAccount(body: WithdrawalAccountBody): Promise<WithdrawalAccount> {
  return call(wallet.bindWithdrawalAccount, { body });
}

export function getWithdrawalRules(signal?: AbortSignal): Promise<WithdrawalRules> {
  return call(wallet.withdrawalRules, {}, { signal });
}

/** 403 WRONG_TRADE_PASSWORD / KYC_REQUIRED, 409 INSUFFICIENT_BALANCE, 400 AMOUNT_OUT_OF_RANGE. */
export function createWithdrawal(
  body: { accountId: string; amount: number; tradePassword: string },
  idempotencyKey: string,
): Promise<Withdrawal> {
  return call(wallet.createWithdrawal, { body }, { idempotencyKey });
}

export function listWithdrawals(
  page: PageRequest,
  signal?: AbortSignal,
): Promise<Page<Withdrawal>> {
  return call(wallet.withdrawals, { query: pageQuery(page) }, { signal });
}

export function listFundRecords(
  page: PageRequest & { type?: TransferKind },
  signal?: AbortSignal,
): Promise<Page<FundRecord>> {
  return call(wallet.fundRecords, { query: { ...pageQuery(page), type: page.type } }, { signal });
}

/** A private upload (a screenshot, an ID photo): only its owner may fetch it, with the token. */
export function getUpload(id: string, signal?: AbortSignal): Promise<Blob> {
  return download(uploads.upload, { params: { id } }, { signal });
}
