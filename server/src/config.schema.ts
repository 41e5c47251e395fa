import fs from 'node:fs';
import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import { parseSentinels } from '@infra/redis';
import { parsePgTarget } from '@infra/db/pg-target';
import { normalizeAccountNumber } from '@shared/wallet/bank-account';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';
import { countryCodes } from '@shared/countries';
import { chainConfigShape, chainPlaceholders } from './config.chain';

/**
 * The environment variables, each with its format, range and default (config.ts reads and
 * checks them together). Every value arrives as text; the parsers below turn it into its type.
 */
const intInRange = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const positiveNumber = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'must be a positive number')
  .transform(Number)
  .pipe(z.number().positive());

/** A positive whole number up to `max`, or `off` (null): no limit. */
const limitOrOff = (max: number) =>
  z
    .string()
    .regex(/^(\d+|off)$/, 'must be a whole number or off')
    .transform((v) => (v === 'off' ? null : Number(v)))
    .pipe(z.number().int().min(1).max(max).nullable());

/** `<n>/<seconds>s` (n requests per window of that many seconds), or `off` (null): no limit. */
const windowRateOrOff = z
  .string()
  .regex(/^(\d{1,7}\/\d{1,5}s|off)$/, 'must be <requests>/<seconds>s, such as 300/60s, or off')
  .transform((v) => {
    if (v === 'off') return null;
    const [points, seconds] = v.slice(0, -1).split('/').map(Number) as [number, number];
    return { points, durationSec: seconds };
  })
  .refine((v) => v === null || (v.points >= 1 && v.durationSec >= 1), 'must be at least 1/1s');

const urlWithScheme = (schemes: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return schemes.includes(new URL(v).protocol.replace(':', ''));
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${schemes.map((s) => s + '://').join(' or ')}`,
  );

/**
 * Demo values that let `npm start` show complete deposit pages and a service link. A production
 * api refuses to start with any of them: users would send money to, or ask help from, nobody.
 */
export const placeholders = {
  SERVICE_URL: 'https://example.com/support',
  DEPOSIT_BANK_NAME: 'Example Bank (demo)',
  DEPOSIT_BANK_CARD: '6222020000000000000',
  DEPOSIT_BANK_HOLDER: 'Example Holder (demo)',
  // Keys of a public test wallet (config.chain.ts): the page labels their addresses demo.
  ...chainPlaceholders,
  // Who runs the platform, shown on registration and About us (DECISIONS.md, Brand and trust).
  LEGAL_ENTITY: 'Example Trading Ltd (demo)',
  LEGAL_REGISTRATION: 'Example registration no. 000000 (demo, not a licence)',
} as const;

/** A same-origin path (`/brand/logo.svg`) or an https URL (its origin is allowed for images). */
const logoUrl = z.string().refine((v) => {
  if (/^\/[^/\\]/.test(v)) return true;
  try {
    return new URL(v).protocol === 'https:';
  } catch {
    return false;
  }
}, 'must be a path starting with / or a URL starting with https://');

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: intInRange(0, 65535).default(3000),
  // Loopback unless told otherwise: `npm start` on a laptop must not open the app (and a
  // generated operator token's endpoints) to the network. Containers set HOST=0.0.0.0.
  HOST: z.string().min(1).default('127.0.0.1'),
  // The private /metrics listener (DECISIONS.md, Metrics): off unless set; never the public port.
  METRICS_PORT: intInRange(0, 65535).optional(),
  METRICS_HOST: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('./data'),
  // One host or several: postgres://u:p@db1:5432,db2:5432/trade?target_session_attrs=read-write
  // (infra/src/db/pg-target.ts).
  DATABASE_URL: z
    .string()
    .refine((v) => {
      try {
        parsePgTarget(v);
        return true;
      } catch {
        return false;
      }
    }, 'must be a URL starting with postgres:// or postgresql://, one host or several (host1:port,host2:port)')
    .optional(),
  // Each process's pool (docs/OPERATIONS.md, PostgreSQL): its size, how long opening a connection
  // may take, and the longest statement.
  DATABASE_POOL_MAX: intInRange(1, 200).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: intInRange(100, 60_000).default(5000),
  DATABASE_STATEMENT_TIMEOUT_MS: intInRange(100, 3_600_000).default(30_000),
  REDIS_URL: urlWithScheme(['redis', 'rediss']).optional(),
  // Redis Sentinel (infra/src/redis.ts): the sentinels to ask for the master REDIS_MASTER_NAME;
  // REDIS_URL then gives only the credentials and database (its host is not used).
  REDIS_SENTINELS: z
    .string()
    .refine((v) => {
      try {
        return parseSentinels(v).length > 0;
      } catch {
        return false;
      }
    }, 'must be host:port[,host:port…]')
    .optional(),
  REDIS_MASTER_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be a sentinel master name')
    .default('mymaster'),
  REDIS_SENTINEL_PASSWORD: z.string().min(1).optional(),
  // Express syntax (comma-separated addresses, subnets, loopback/linklocal/uniquelocal), checked
  // here as proxy-addr compiles it, for the api's req.ip and the gateway's client address alike.
  TRUST_PROXY: z
    .string()
    .min(1)
    .refine((v) => {
      try {
        proxyaddr.compile(v.split(',').map((s) => s.trim()));
        return true;
      } catch {
        return false;
      }
    }, 'must be comma-separated IP addresses, subnets, loopback, linklocal or uniquelocal')
    .default('loopback'),
  // Socket connections per client address, per gateway process (DECISIONS.md, Socket limits).
  SOCKET_CONNECT_RATE: limitOrOff(1_000_000).default(120),
  SOCKET_MAX_PER_ADDRESS: limitOrOff(1_000_000).default(100),
  // Anonymous market reads per client address, per window, and orders per user: a burst of
  // ORDER_BURST, then ORDER_RATE a second (DECISIONS.md, Public market reads and order
  // throttles); `off` for none (load tools, benchmarks).
  MARKET_READ_RATE: windowRateOrOff.default({ points: 300, durationSec: 60 }),
  ORDER_BURST: intInRange(1, 10_000).default(10),
  ORDER_RATE: z
    .string()
    .regex(/^(\d+(\.\d+)?|off)$/, 'must be a positive number (orders a second) or off')
    .transform((v) => (v === 'off' ? null : Number(v)))
    .pipe(z.number().positive().max(100_000).nullable())
    .default(5),
  // A socket's send backlog (bytes the gateway holds for it): past the first its market channels
  // are conflated, past the second it is disconnected (DECISIONS.md, Slow consumers).
  SOCKET_CONFLATE_BYTES: intInRange(1024, 64 * 2 ** 20).default(64 * 1024),
  SOCKET_DISCONNECT_BYTES: intInRange(4096, 256 * 2 ** 20).default(512 * 1024),
  // Gateway processes on one port (Node's cluster module): a number, or `auto` for one per core.
  GATEWAY_PROCESSES: z
    .string()
    .regex(/^(\d+|auto)$/, 'must be a whole number or auto')
    .refine((v) => v === 'auto' || (Number(v) >= 1 && Number(v) <= 256), 'must be 1 to 256 or auto')
    .default('1'),
  // Set by a gateway cluster's primary in each worker's environment, never by an operator: the
  // worker's slot (1…N), the `process` label of its metrics (gateway/cluster.ts).
  GATEWAY_PROCESS_SLOT: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, 'must be 1 to 999 (the gateway primary sets it)')
    .optional(),
  // Socket tickets (DECISIONS.md, Socket tickets): the HMAC key, the same on the api and every
  // gateway; unset = no tickets, every socket's token is checked by the api. Their lifetime is
  // also how long the api keeps a revoked session's record.
  SOCKET_TICKET_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SOCKET_TICKET_TTL_MS: intInRange(10_000, 86_400_000).default(600_000),
  // On SIGTERM a gateway fails readiness, then disconnects its sockets spread over this long.
  GATEWAY_DRAIN_MS: intInRange(0, 60_000).default(3000),
  API_URL: urlWithScheme(['http', 'https']).optional(),
  REDIS_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9_-]{1,32}$/, 'must be 1-32 lowercase letters, digits, _ or -')
    .default('trade'),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  OPERATOR_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** During a rotation: the token being replaced, still accepted besides OPERATOR_TOKEN. */
  OPERATOR_TOKEN_PREVIOUS: z.string().min(16, 'must be at least 16 characters').optional(),
  APP_NAME: z.string().min(1).max(40).default('Trade'),
  // Brand and trust (DECISIONS.md, Brand and trust): unset logo = the mark built into the client;
  // unset risk warning = the client's translated sentence; a set one is shown in every language.
  APP_LOGO_URL: logoUrl.optional(),
  LEGAL_ENTITY: z.string().trim().min(1).max(80).default(placeholders.LEGAL_ENTITY),
  LEGAL_REGISTRATION: z.string().trim().min(1).max(160).default(placeholders.LEGAL_REGISTRATION),
  RISK_WARNING: z.string().trim().min(1).max(200).optional(),
  // The version of the terms and risk disclosure a new account must accept (users.terms_version).
  TERMS_VERSION: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,32}$/, 'must be 1-32 letters, digits, dots, _ or -')
    .default(DEFAULT_TERMS_VERSION),
  SHOW_CREDIT_SCORE: z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .transform((v) => v === 'true' || v === '1')
    .default(true),
  CURRENCY: z
    .string()
    .regex(/^[A-Z]{3,5}$/, 'must be 3-5 capital letters')
    .default('USDT'),
  SERVICE_URL: z.url('must be a URL').default(placeholders.SERVICE_URL),
  SIM_SEED: intInRange(0, 2 ** 31 - 1).default(20260101),
  // docs/FAIRNESS.md: live ticks draw from per-period committed secrets; `seeded` replays the
  // public SIM_SEED (tests, benchmarks) and is refused in production.
  SIM_RANDOMNESS: z.enum(['committed', 'seeded']).default('committed'),
  SIM_PERIOD_MINUTES: intInRange(1, 1440).default(60),
  // The process's scheduling priority (nice, -20 highest … 19 lowest); unset leaves it as started.
  // docs/FAIRNESS.md, Voids: a simulator that shares a host with busy processes is given a
  // higher one (a negative value needs CAP_SYS_NICE).
  PROCESS_NICE: z
    .string()
    .regex(/^-?\d{1,2}$/, 'must be a whole number from -20 to 19')
    .transform(Number)
    .pipe(z.number().int().min(-20).max(19))
    .optional(),
  // market-sim/src/lease.ts: a leader that stops renewing is replaced this long after.
  SIM_LEASE_MS: intInRange(1000, 60_000).default(3000),
  SIM_TICKS_PER_SECOND: positiveNumber.default(2),
  SIM_BACKFILL_HOURS: intInRange(0, 168).default(24),
  // market-sim/src/backfill.ts: hourly candles drawn before a first start's backfill (4h, 1D charts).
  SIM_HISTORY_DAYS: intInRange(0, 730).default(130),
  TICK_RETENTION_HOURS: intInRange(1, 24 * 365).default(48),
  // A tick is published once written (docs/FAIRNESS.md), so this is also the tick's latency.
  TAPE_FLUSH_MS: intInRange(10, 5000).default(50),
  // The write cadence while nobody wants the tape current (no gateway has a socket, no worker's
  // decision waits on the tape): DECISIONS 63. 0: always TAPE_FLUSH_MS. At most 2 s, so a
  // quote heard at rest stays within the default MAX_FEED_DELAY_MS (ticks come ≤ 0.75 s apart).
  TAPE_REST_FLUSH_MS: intInRange(0, 2000).default(1000),
  // Diagnostics: the embedded database thread counts its statements over windows of this many
  // seconds and writes each window's counts to stderr (infra/src/db/ports/statement-count.ts).
  DB_COUNT_STATEMENTS_S: intInRange(0, 3600).default(0),
  MAX_FEED_DELAY_MS: intInRange(100, 60_000).default(3000),
  // Early close (docs/FAIRNESS.md): the spread taken off the sell value, and the last stretch
  // before expiry in which no sell is taken.
  SELL_SPREAD_BP: intInRange(0, 5000).default(500),
  SELL_CLOSES_BEFORE_EXPIRY_MS: intInRange(0, 60_000).default(10_000),
  PLATFORM_UTC_OFFSET_MINUTES: z
    .string()
    .regex(/^-?\d+$/, 'must be a whole number of minutes')
    .transform(Number)
    .pipe(z.number().int().min(-720).max(840))
    .default(0),
  SETTLEMENT_WORKER: z.enum(['on', 'off']).default('on'),
  TEST_CLOCK: z.enum(['0', '1']).default('0'),
  SETTLE_BATCH_SIZE: intInRange(1, 5000).default(1000),
  // The api's periodic ledger check (ledger_check_ok); 0 turns it off.
  LEDGER_CHECK_MINUTES: intInRange(0, 1440).default(15),
  // Price alerts (DECISIONS, Price alerts): how many active alerts a user may have, and how often
  // each api process evaluates the pending ones on the tape (ms); ALERT_EVALUATE_MS 0 turns it off.
  PRICE_ALERTS_MAX: intInRange(1, 500).default(20),
  ALERT_EVALUATE_MS: intInRange(0, 60_000).default(300),
  SHUTDOWN_TIMEOUT_MS: intInRange(100, 120_000).default(10_000),
  // After SIGTERM, readiness fails at once but requests are still served this long, so a
  // balancer that polls /readyz stops sending new ones before the listener closes.
  SHUTDOWN_DRAIN_MS: intInRange(0, 60_000).default(0),
  // Money (DECISIONS.md, Money). Amounts in minor units; the demo receiving details are
  // placeholders in valid formats, to be replaced by a real deployment.
  USDT_RATE: z
    .string()
    .regex(/^\d{1,6}(\.\d{1,8})?$/, 'must be a decimal number such as 1 or 7.25')
    .refine((v) => Number(v) > 0, 'must be above 0')
    .default('1'),
  DEPOSIT_BANK_NAME: z.string().min(1).max(60).default(placeholders.DEPOSIT_BANK_NAME),
  // In the form of DEPOSIT_BANK_COUNTRY (checked together): a card or account number, an IBAN.
  DEPOSIT_BANK_CARD: z
    .string()
    .max(60)
    .transform(normalizeAccountNumber)
    .default(placeholders.DEPOSIT_BANK_CARD),
  DEPOSIT_BANK_COUNTRY: z
    .string()
    .trim()
    .toUpperCase()
    .refine((c) => countryCodes.has(c), 'must be a country code such as CN or DE')
    .default('CN'),
  // Required where the country addresses transfers to a branch (JP).
  DEPOSIT_BANK_BRANCH: z.string().trim().min(1).max(60).optional(),
  DEPOSIT_BANK_HOLDER: z.string().min(1).max(60).default(placeholders.DEPOSIT_BANK_HOLDER),
  // USDT deposits by address: keys, nodes, confirmations (config.chain.ts).
  ...chainConfigShape,
  WITHDRAW_MIN: intInRange(1, Number.MAX_SAFE_INTEGER).default(1000),
  WITHDRAW_MAX: intInRange(1, Number.MAX_SAFE_INTEGER).default(5_000_000),
  // Withdrawal fee (DECISIONS.md, Withdrawal fee): basis points of the amount, rounded down,
  // and never below the minimum; both 0 (no fee) by default. The fee is part of the amount.
  WITHDRAW_FEE_BPS: intInRange(0, 5000).default(0),
  WITHDRAW_FEE_MIN: intInRange(0, Number.MAX_SAFE_INTEGER).default(0),
  // A MaxMind-format database (GeoLite2 City or Country) naming the place of each session's
  // address on the security page; unset: no place is shown (DECISIONS.md, Account security).
  GEOIP_DATABASE: z
    .string()
    .min(1)
    .refine((path) => {
      try {
        fs.accessSync(path, fs.constants.R_OK);
        return true;
      } catch {
        return false;
      }
    }, 'must be a readable MaxMind database file (.mmdb)')
    .optional(),
  // A newly bound withdrawal account receives withdrawals only after this many hours (0: at once),
  // so whoever gets into an account cannot bind their own and empty it at once.
  WITHDRAWAL_ACCOUNT_HOLD_HOURS: intInRange(0, 720).default(24),
  // A support reset of two-factor sign-in takes effect this many hours after its approval, so the
  // owner, told at once, can call it off (docs/OPERATIONS.md; 0 only for tests).
  TWO_FACTOR_RESET_DELAY_HOURS: intInRange(0, 720).default(72),
  WITHDRAW_REQUIRES_KYC: z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .transform((v) => v === 'true' || v === '1')
    .default(true),
  // Practice money (DECISIONS.md, Practice account): each user's practice balance, opened and
  // reset to this many minor units (10 000.00); it can never become real money.
  PRACTICE_BALANCE: intInRange(100, 1_000_000_000_000).default(1_000_000),
  // Savings balance (DECISIONS.md, Savings): transfers per user and platform day, annual rate.
  SAVINGS_DAILY_IN: intInRange(0, 1000).default(3),
  SAVINGS_DAILY_OUT: intInRange(0, 1000).default(3),
  SAVINGS_ANNUAL_RATE: z
    .string()
    .regex(/^(0(\.\d{1,8})?|1(\.0{1,8})?)$/, 'must be a decimal from 0 to 1 such as 0.0365')
    .default('0.0365'),
});
