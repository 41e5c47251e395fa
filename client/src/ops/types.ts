/** The shapes the console reads (shared/src/dto.ts, as JSON). */
export type Role = 'reviewer' | 'support' | 'admin' | 'service';

export interface Me {
  id: string | null;
  name: string;
  role: Role;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

interface Reviewed {
  id: string;
  userId: string;
  userAccount: string;
  status: string;
  reason?: string;
  createdAt: number;
  reviewedAt?: number;
}

export interface OpsDeposit extends Reviewed {
  channel: string;
  amount: number;
  quantity?: number;
  rate?: string;
  remark?: string;
  /** Always on bank deposits; USDT deposits may carry only a transaction id. */
  screenshotId?: string;
  payerBank?: string;
  payerCard?: string;
  payerName?: string;
  /** USDT deposits: the on-chain transaction id (their screenshot is optional). */
  txId?: string;
  /** claim: the user reported it; chain: the watcher saw it arrive at the user's own address. */
  source: 'claim' | 'chain';
  /** USDT transfers read from the chain (by the watcher, or for a claim). */
  chain?: ChainFacts;
}

/** A USDT transfer as the network shows it (shared/src/dto.ts, Deposit.chain). */
export interface ChainFacts {
  fromAddress: string;
  toAddress: string;
  blockNumber: number;
  logIndex: number;
  confirmations: number;
  requiredConfirmations: number;
  /** The transaction on a public block explorer. */
  explorerUrl: string;
}

export type WithdrawalAccount =
  | {
      id: string;
      type: 'bank';
      holderName: string;
      nationality: string;
      bankName: string;
      cardNumber: string;
      branch?: string;
      bankAddress?: string;
    }
  | { id: string; type: 'coin'; network: string; address: string };

export interface OpsWithdrawal extends Reviewed {
  amount: number;
  account: WithdrawalAccount;
}

export interface OpsKyc extends Reviewed {
  name: string;
  idNumber: string;
  nationality: string;
  frontId: string;
  backId: string;
  sameIdNumber: { userId: string; userAccount: string; status: string }[];
}

export interface Operator {
  id: string;
  name: string;
  role: 'reviewer' | 'support' | 'admin';
  createdAt: number;
  disabled: boolean;
}

/** GET /api/ops/operators: an operator with their live sessions. */
export interface OperatorListItem extends Operator {
  liveSessions: number;
}

export interface NewOperator {
  operator: Operator;
  password: string;
  totpSecret: string;
  otpauthUri: string;
}

export interface AuditLine {
  id: string;
  at: number;
  operator: string;
  role: string;
  action: string;
  target: string | null;
  reason: string | null;
  address: string | null;
  status: number;
  /** The answer or the state after; a sign-in's `{ signedIn, failure?, lockedOut? }`. */
  after: unknown;
}

/** GET /api/ops/access-log: an operator read a user's personal data. */
export interface AccessLine {
  id: string;
  at: number;
  operator: string;
  role: string;
  kind: 'profile' | 'review_context' | 'upload';
  userId: string;
  uploadId: string | null;
  address: string;
}

export interface OpsUser {
  id: string;
  account: string;
  phone: string;
  nickname: string;
  creditScore: number;
  createdAt: number;
  frozen: boolean;
  frozenReason: string | null;
  kycStatus: 'none' | 'pending' | 'verified' | 'rejected';
}

export interface OpsOrder {
  id: string;
  productId: string;
  direction: 'up' | 'down';
  amount: number;
  duration: number;
  status: string;
  pnl: number | null;
  createdAt: number;
}

export interface OpsUserProfile {
  user: OpsUser;
  balances: { available: number; inOrders: number; withdrawHold: number; savings: number };
  orders: OpsOrder[];
  deposits: {
    id: string;
    channel: string;
    amount: number;
    status: string;
    createdAt: number;
    chain?: ChainFacts;
  }[];
  withdrawals: { id: string; amount: number; status: string; createdAt: number }[];
  ledger: LedgerEntry[];
  sessions: { id: string; createdAt: number; lastSeenAt: number; expiresAt: number }[];
}

export interface ExposureSide {
  stake: number;
  pays: number;
}

export interface OpsDashboard {
  pending: { deposits: number; withdrawals: number; kyc: number };
  exposure: { productId: string; up: ExposureSide; down: ExposureSide }[];
  placementsLastMinute: number;
  housePnlToday: number;
  feed: {
    productId: string;
    largestGapMs: number | null;
    settled: number;
    voids: { FEED_STALE: number; NO_ENTRY_TICK: number };
  }[];
  live: {
    gateways: { id: string; sockets: number; ticksPerSecond: number }[];
    sockets: number;
    ticksPerSecond: number | null;
    settlement: { settledLastMinute: number; lagP50Ms: number; lagP99Ms: number } | null;
    processes: number;
  };
}

/** GET /api/market/products: the fields the Markets page shows. */
export interface MarketProduct {
  id: string;
  name: string;
  category: 'crypto' | 'forex' | 'metals' | 'energy' | 'index';
  status: 'open' | 'closed' | 'maintenance';
  opensAt?: number;
  last: { price: string } | null;
}

/** POST /api/ops/messages and /api/ops/news: what was sent or published. */
export interface SentMessage {
  id: string;
  userId: string | null;
  title: string;
}
export interface PublishedNews {
  id: string;
}

/** GET /api/ops/users/:id (ledger) and /review-context: one movement of the real balance. */
export interface LedgerEntry {
  id: string;
  type: string;
  amount: number;
  balanceAfter: number;
  createdAt: number;
  ref: string | null;
}

/** GET /api/ops/users/:id/review-context: what a reviewer weighs beside a review. */
export type OpsReviewContext = Pick<
  OpsUserProfile,
  'user' | 'balances' | 'deposits' | 'withdrawals' | 'ledger'
>;
