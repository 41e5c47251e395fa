import type { LedgerQuery } from '@shared/wallet.schemas';
import {
  depositArrival,
  depositLimits,
  type AccountSummary,
  type DepositChannel,
  type FundRecord,
  type LedgerCheck,
  type Page,
  type WithdrawalRules,
} from '@shared/wallet';
import { placeholders, type Config } from '@server/config';
import type { Db } from '@infra/db';
import type { Limiter } from '@server/platform/rate-limit';
import { toPage } from '@server/platform/paging';
import type { UserEvents } from '@server/platform/user-events';
import type { AuthService } from '../auth/auth.service';
import type { UploadService } from '../uploads/upload.service';
import { createDepositService } from './deposit.service';
import { checkLedger } from '../ledger/ledger';
import type { AccountSummaries } from './summary';
import { fundRecords } from './wallet.repo';
import { presentFundRecord } from './wallet.presenters';
import { createWithdrawalService } from './withdrawal.service';
import type { IdentityChecks } from '../kyc/identity';

export interface WalletDeps {
  db: Db;
  config: Config;
  auth: AuthService;
  uploads: UploadService;
  userEvents: UserEvents;
  summaries: AccountSummaries;
  identity: Pick<IdentityChecks, 'verified'>;
  /** Deposits per user and window (`depositRateLimit`). */
  depositRate: Limiter;
  /** Deposits a user may have under review at once; PENDING_DEPOSITS_MAX unless a test says. */
  pendingDepositsMax?: number;
}

/** The wallet: balances, fund records, deposits and withdrawals (DECISIONS.md, Money). */
export function createWalletService(deps: WalletDeps) {
  const { db, config } = deps;
  // Demo receiving details (a development default) are labelled on the page as examples.
  const demo = (...names: (keyof typeof placeholders)[]) =>
    names.some((n) => config[n] === placeholders[n]);
  const channels: DepositChannel[] = [
    {
      channel: 'bank',
      bankName: config.DEPOSIT_BANK_NAME,
      ...(config.DEPOSIT_BANK_BRANCH ? { branch: config.DEPOSIT_BANK_BRANCH } : {}),
      cardNumber: config.DEPOSIT_BANK_CARD,
      country: config.DEPOSIT_BANK_COUNTRY,
      holderName: config.DEPOSIT_BANK_HOLDER,
      ...depositLimits,
      arrival: depositArrival.bank,
      demo: demo('DEPOSIT_BANK_NAME', 'DEPOSIT_BANK_CARD', 'DEPOSIT_BANK_HOLDER'),
    },
    {
      channel: 'usdt-trc20',
      network: 'TRC20',
      address: config.DEPOSIT_TRC20_ADDRESS,
      rate: config.USDT_RATE,
      ...depositLimits,
      arrival: depositArrival['usdt-trc20'],
      demo: demo('DEPOSIT_TRC20_ADDRESS'),
    },
    {
      channel: 'usdt-erc20',
      network: 'ERC20',
      address: config.DEPOSIT_ERC20_ADDRESS,
      rate: config.USDT_RATE,
      ...depositLimits,
      arrival: depositArrival['usdt-erc20'],
      demo: demo('DEPOSIT_ERC20_ADDRESS'),
    },
  ];
  const withdrawalRules: WithdrawalRules = {
    min: config.WITHDRAW_MIN,
    max: config.WITHDRAW_MAX,
    feeBps: config.WITHDRAW_FEE_BPS,
    feeMin: config.WITHDRAW_FEE_MIN,
    requiresKyc: config.WITHDRAW_REQUIRES_KYC,
  };

  return {
    deposits: createDepositService(deps),
    withdrawals: createWithdrawalService(deps),
    summary: (userId: number): Promise<AccountSummary> => deps.summaries.of(userId),
    depositChannels: (): DepositChannel[] => channels,
    withdrawalRules: (): WithdrawalRules => withdrawalRules,

    async fundRecords(userId: number, q: LedgerQuery): Promise<Page<FundRecord>> {
      return toPage(await fundRecords(db, userId, q), q.limit, presentFundRecord);
    },

    checkLedger: (): Promise<LedgerCheck> => checkLedger(db),
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
