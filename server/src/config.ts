import path from 'node:path';
import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import { coinAddressPatterns } from '@shared/wallet.schemas';

/**
 * The one place that reads `process.env`. Every variable is parsed at start; a bad value stops
 * the process with the whole list of problems, each naming its variable.
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

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: intInRange(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWithScheme(['postgres', 'postgresql']).optional(),
  REDIS_URL: urlWithScheme(['redis', 'rediss']).optional(),
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
  APP_NAME: z.string().min(1).max(40).default('Trade'),
  CURRENCY: z
    .string()
    .regex(/^[A-Z]{3,5}$/, 'must be 3-5 capital letters')
    .default('USDT'),
  SERVICE_URL: z.url('must be a URL').default('https://example.com/support'),
  SIM_SEED: intInRange(0, 2 ** 31 - 1).default(20260101),
  // docs/FAIRNESS.md: live ticks draw from per-period committed secrets; `seeded` replays the
  // public SIM_SEED (tests, benchmarks) and is refused in production.
  SIM_RANDOMNESS: z.enum(['committed', 'seeded']).default('committed'),
  SIM_PERIOD_MINUTES: intInRange(1, 1440).default(60),
  SIM_TICKS_PER_SECOND: positiveNumber.default(2),
  SIM_BACKFILL_HOURS: intInRange(0, 168).default(24),
  TICK_RETENTION_HOURS: intInRange(1, 24 * 365).default(48),
  TAPE_FLUSH_MS: intInRange(10, 5000).default(100),
  MAX_FEED_DELAY_MS: intInRange(100, 60_000).default(3000),
  PLATFORM_UTC_OFFSET_MINUTES: z
    .string()
    .regex(/^-?\d+$/, 'must be a whole number of minutes')
    .transform(Number)
    .pipe(z.number().int().min(-720).max(840))
    .default(0),
  SETTLEMENT_WORKER: z.enum(['on', 'off']).default('on'),
  TEST_CLOCK: z.enum(['0', '1']).default('0'),
  SETTLE_BATCH_SIZE: intInRange(1, 5000).default(200),
  SHUTDOWN_TIMEOUT_MS: intInRange(100, 120_000).default(10_000),
  // Money (DECISIONS.md, Money). Amounts in minor units; the demo receiving details are
  // placeholders in valid formats, to be replaced by a real deployment.
  USDT_RATE: z
    .string()
    .regex(/^\d{1,6}(\.\d{1,8})?$/, 'must be a decimal number such as 1 or 7.25')
    .refine((v) => Number(v) > 0, 'must be above 0')
    .default('1'),
  DEPOSIT_BANK_NAME: z.string().min(1).max(60).default('Demo Bank'),
  DEPOSIT_BANK_CARD: z
    .string()
    .regex(/^\d{8,30}$/, 'must be 8-30 digits')
    .default('6222020000000000000'),
  DEPOSIT_BANK_HOLDER: z.string().min(1).max(60).default('Trade Demo Ltd'),
  DEPOSIT_TRC20_ADDRESS: z
    .string()
    .regex(coinAddressPatterns.TRC20, 'must be T followed by 33 base58 characters')
    .default('TDemoDepositAddressForTestsXXXXXXX'),
  DEPOSIT_ERC20_ADDRESS: z
    .string()
    .regex(coinAddressPatterns.ERC20, 'must be 0x followed by 40 hex digits')
    .default('0xDe000000000000000000000000000000000000de'),
  WITHDRAW_MIN: intInRange(1, Number.MAX_SAFE_INTEGER).default(1000),
  WITHDRAW_MAX: intInRange(1, Number.MAX_SAFE_INTEGER).default(5_000_000),
  WITHDRAW_REQUIRES_KYC: z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .transform((v) => v === 'true' || v === '1')
    .default(true),
  // Savings balance (DECISIONS.md, Savings): transfers per user and platform day, annual rate.
  SAVINGS_DAILY_IN: intInRange(0, 1000).default(3),
  SAVINGS_DAILY_OUT: intInRange(0, 1000).default(3),
  SAVINGS_ANNUAL_RATE: z
    .string()
    .regex(/^(0(\.\d{1,8})?|1(\.0{1,8})?)$/, 'must be a decimal from 0 to 1 such as 0.0365')
    .default('0.0365'),
});

type Raw = z.infer<typeof configSchema>;

export interface Config extends Raw {
  /** Absolute paths derived from DATA_DIR. */
  dbDir: string;
  uploadsDir: string;
  clientDir: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment (default `process.env`); throws ConfigError listing every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "not set", as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k in configSchema.shape && v !== undefined && v !== ''),
  );
  const parsed = configSchema
    .refine((c) => c.WITHDRAW_MIN <= c.WITHDRAW_MAX, {
      path: ['WITHDRAW_MIN'],
      message: 'must not be above WITHDRAW_MAX',
    })
    .refine((c) => c.SOCKET_CONFLATE_BYTES < c.SOCKET_DISCONNECT_BYTES, {
      path: ['SOCKET_CONFLATE_BYTES'],
      message: 'must be below SOCKET_DISCONNECT_BYTES',
    })
    .refine((c) => !(c.NODE_ENV === 'production' && c.SIM_RANDOMNESS === 'seeded'), {
      path: ['SIM_RANDOMNESS'],
      message:
        'seeded makes every live price predictable from the public seed; production needs committed',
    })
    .safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? '?');
        return `${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`;
      }),
    );
  }
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  return {
    ...parsed.data,
    dbDir: path.join(dataDir, 'db'),
    uploadsDir: path.join(dataDir, 'uploads'),
    clientDir: path.resolve('dist/client'),
  };
}

/** Loads the config or prints the problems and exits: for entry points. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}
