import path from 'node:path';
import { z } from 'zod';

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

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: intInRange(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWithScheme(['postgres', 'postgresql']).optional(),
  REDIS_URL: urlWithScheme(['redis', 'rediss']).optional(),
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
  SIM_TICKS_PER_SECOND: positiveNumber.default(2),
  SIM_BACKFILL_HOURS: intInRange(0, 168).default(24),
  TICK_RETENTION_HOURS: intInRange(1, 24 * 365).default(48),
  MAX_FEED_DELAY_MS: intInRange(100, 60_000).default(3000),
  SHUTDOWN_TIMEOUT_MS: intInRange(100, 120_000).default(10_000),
});

type Raw = z.infer<typeof schema>;

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
    Object.entries(env).filter(([k, v]) => k in schema.shape && v !== undefined && v !== ''),
  );
  const parsed = schema.safeParse(cleaned);
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
