import type { LedgerQuery } from '@shared/wallet/requests';
import {
  depositArrival,
  depositLimits,
  type AccountSummary,
  type CoinNetwork,
  type DepositChannel,
  type FundRecord,
  type LedgerCheck,
  type Page,
  type WithdrawalRules,
} from '@shared/wallet/model';
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
import type { Clock } from '@server/platform/clock';
import type { IdentityChecks } from '../kyc/identity';
import type { DepositAddresses } from './chain/deposit-addresses';
import type { ChainSources } from './chain/source';
import { flaggedSenders } from './chain/flagged-senders';

export interface WalletDeps {
  db: Db;
  config: Config;
  auth: AuthService;
  uploads: UploadService;
  userEvents: UserEvents;
  summaries: AccountSummaries;
  identity: Pick<IdentityChecks, 'verified'>;
  /** Each user's own USDT receiving addresses. */
  addresses: DepositAddresses;
  /** The chain nodes a USDT claim is checked against, per network. */
  chainSources: ChainSources;
  /** Deposits per user and window (`depositRateLimit`). */
  depositRate: Limiter;
  /** Deposits a user may have under review at once; PENDING_DEPOSITS_MAX unless a test says. */
  pendingDepositsMax?: number;
  /** The platform clock (movable under TEST_CLOCK=1): the hold on new withdrawal accounts. */
  clock: Clock;
}

/** The wallet: balances, fund records, deposits and withdrawals (DECISIONS.md, Money). */
export function createWalletService(deps: WalletDeps) {
  const { db, config } = deps;
  // Demo receiving details (a development default) are labelled on the page as examples.
  const demo = (...names: (keyof typeof placeholders)[]) =>
    names.some((n) => config[n] === placeholders[n]);
  const bank: DepositChannel = {
    channel: 'bank',
    bankName: config.DEPOSIT_BANK_NAME,
    ...(config.DEPOSIT_BANK_BRANCH ? { branch: config.DEPOSIT_BANK_BRANCH } : {}),
    cardNumber: config.DEPOSIT_BANK_CARD,
    country: config.DEPOSIT_BANK_COUNTRY,
    holderName: config.DEPOSIT_BANK_HOLDER,
    ...depositLimits,
    arrival: depositArrival.bank,
    demo: demo('DEPOSIT_BANK_NAME', 'DEPOSIT_BANK_CARD', 'DEPOSIT_BANK_HOLDER'),
  };
  const confirmations = { TRC20: config.TRC20_CONFIRMATIONS, ERC20: config.ERC20_CONFIRMATIONS };
  const usdt = (network: CoinNetwork, address: string): DepositChannel => {
    const channel = network === 'TRC20' ? 'usdt-trc20' : 'usdt-erc20';
    return {
      channel,
      network,
      address,
      rate: config.USDT_RATE,
      ...depositLimits,
      arrival: { ...depositArrival[channel], confirmations: confirmations[network] },
      demo: demo(network === 'TRC20' ? 'USDT_TRC20_XPUB' : 'USDT_ERC20_XPUB'),
    };
  };
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
    /** The receiving details: the platform's bank account, the user's own USDT addresses. */
    async depositChannels(userId: number): Promise<DepositChannel[]> {
      const own = await deps.addresses.of(db, userId);
      return [bank, usdt('TRC20', own.TRC20), usdt('ERC20', own.ERC20)];
    },
    withdrawalRules: (): WithdrawalRules => withdrawalRules,

    async fundRecords(userId: number, q: LedgerQuery): Promise<Page<FundRecord>> {
      return toPage(await fundRecords(db, userId, q), q.limit, presentFundRecord);
    },

    checkLedger: (): Promise<LedgerCheck> => checkLedger(db),
    /** Senders whose USDT transfers wait for an operator (chain/flagged-senders.ts). */
    flaggedSenders: {
      list: () => flaggedSenders.list(db),
      flag: (f: { network: CoinNetwork; address: string; reason: string }) =>
        flaggedSenders.flag(db, f),
      unflag: (network: CoinNetwork, address: string) =>
        flaggedSenders.unflag(db, network, address),
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
