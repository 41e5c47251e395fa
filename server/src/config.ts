import path from 'node:path';
import type { z } from 'zod';
import { parseSentinels, type RedisTarget } from '@infra/redis';
import { accountNumberProblem, needsBranch } from '@shared/wallet/bank-account';
import { countryCodes } from '@shared/countries';
import { configSchema, placeholders } from './config.schema';

export { configSchema, placeholders } from './config.schema';

/**
 * The one place that reads `process.env`. Every variable is parsed at start (config.schema.ts);
 * a bad value stops the process with the whole list of problems, each naming its variable.
 */

type Raw = z.infer<typeof configSchema>;

export interface Config extends Raw {
  /** Absolute paths derived from DATA_DIR. */
  dbDir: string;
  uploadsDir: string;
  clientDir: string;
}

/**
 * Which process reads the config. The api (and the embedded `all`) shows users the receiving
 * details and the service link, so only they must have real ones in production.
 */
export type Role = 'all' | 'api' | 'gateway' | 'sim' | 'worker' | 'watcher';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Where this process's Redis is (infra/src/redis.ts), when it has one. */
export function redisTarget(c: Config): RedisTarget | undefined {
  if (!c.REDIS_URL) return undefined;
  return {
    url: c.REDIS_URL,
    ...(c.REDIS_SENTINELS
      ? {
          sentinels: parseSentinels(c.REDIS_SENTINELS),
          masterName: c.REDIS_MASTER_NAME,
          sentinelPassword: c.REDIS_SENTINEL_PASSWORD,
        }
      : {}),
  };
}

/** Names whose values are credentials: a config error names them but never shows the value. */
const secretName = /SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_KEY|API_KEY/i;

/**
 * How a bad value is shown in a config error, which ends up in logs and CI output: secrets not
 * at all, and the password of a URL (`postgres://user:pw@host`) masked, even in a URL too
 * malformed to parse.
 */
export function describeValue(name: string, value: string | undefined): string {
  if (value === undefined || value === '') return `${name} (not set)`;
  if (secretName.test(name)) return `${name}=(hidden)`;
  return `${name}=${JSON.stringify(maskUrlPassword(value, /_URL$/.test(name)))}`;
}

/**
 * `scheme://user:password@host` → `scheme://user:***@host`, and `?password=…` → `?password=***`.
 * Works on text, not a parsed URL: the values shown are the ones that failed to parse.
 * `isUrl` also masks `user:password@host` written without a scheme.
 */
export function maskUrlPassword(value: string, isUrl = false): string {
  let out = value.replace(/([?&](?:password|pass|pwd|secret)=)[^&#]*/gi, '$1***');
  const at = out.lastIndexOf('@');
  if (at < 0) return out;
  const slashes = out.indexOf('//');
  const hasScheme = slashes >= 0 && slashes < at;
  if (!hasScheme && !isUrl) return out;
  const colon = out.indexOf(':', hasScheme ? slashes + 2 : 0);
  if (colon >= 0 && colon < at) out = `${out.slice(0, colon + 1)}***${out.slice(at)}`;
  return out;
}

/** Checks between variables, once each has parsed. */
function checkTogether(c: Raw, ctx: z.RefinementCtx): void {
  const problem = (name: keyof Raw, message: string) =>
    ctx.addIssue({ code: 'custom', path: [name], message });
  if (c.WITHDRAW_MIN > c.WITHDRAW_MAX) problem('WITHDRAW_MIN', 'must not be above WITHDRAW_MAX');
  if (c.WITHDRAW_FEE_MIN >= c.WITHDRAW_MIN)
    problem('WITHDRAW_FEE_MIN', 'must be below WITHDRAW_MIN (the smallest withdrawal pays it)');
  // The receiving details in the form their country uses, as a withdrawal account's would be.
  if (countryCodes.has(c.DEPOSIT_BANK_COUNTRY)) {
    const numberProblem = accountNumberProblem(c.DEPOSIT_BANK_COUNTRY, c.DEPOSIT_BANK_CARD);
    if (numberProblem) problem('DEPOSIT_BANK_CARD', `${numberProblem} (DEPOSIT_BANK_COUNTRY)`);
    if (needsBranch(c.DEPOSIT_BANK_COUNTRY) && !c.DEPOSIT_BANK_BRANCH)
      problem('DEPOSIT_BANK_BRANCH', 'is required for this DEPOSIT_BANK_COUNTRY');
  }
  if (c.SOCKET_CONFLATE_BYTES >= c.SOCKET_DISCONNECT_BYTES)
    problem('SOCKET_CONFLATE_BYTES', 'must be below SOCKET_DISCONNECT_BYTES');
  if (c.GATEWAY_DRAIN_MS >= c.SHUTDOWN_TIMEOUT_MS)
    problem(
      'GATEWAY_DRAIN_MS',
      'must be below SHUTDOWN_TIMEOUT_MS (the drain is part of the shutdown)',
    );
  if (c.METRICS_PORT !== undefined && c.METRICS_PORT !== 0 && c.METRICS_PORT === c.PORT)
    problem('METRICS_PORT', 'must differ from PORT (metrics are never served on the public port)');
  if (c.OPERATOR_TOKEN_PREVIOUS !== undefined && c.OPERATOR_TOKEN === undefined)
    problem('OPERATOR_TOKEN_PREVIOUS', 'only with OPERATOR_TOKEN (the token replacing it)');
  if (c.REDIS_SENTINELS !== undefined && c.REDIS_URL === undefined)
    problem(
      'REDIS_SENTINELS',
      'only with REDIS_URL (its credentials and database; e.g. redis://:password@sentinel/0)',
    );
  if (c.OPERATOR_TOKEN_PREVIOUS !== undefined && c.OPERATOR_TOKEN_PREVIOUS === c.OPERATOR_TOKEN)
    problem('OPERATOR_TOKEN_PREVIOUS', 'must differ from OPERATOR_TOKEN');
}

/**
 * What production refuses, read from the raw values so it is listed together with any bad
 * format (an object refinement would wait until every variable parsed).
 */
function productionProblems(
  raw: Record<string, string | undefined>,
  role: Role | undefined,
): { name: string; message: string }[] {
  if (raw.NODE_ENV !== 'production') return [];
  const problems: { name: string; message: string }[] = [];
  if (raw.SIM_RANDOMNESS === 'seeded')
    problems.push({
      name: 'SIM_RANDOMNESS',
      message:
        'seeded makes every live price predictable from the public seed; production needs committed',
    });
  if (raw.TEST_CLOCK === '1')
    problems.push({
      name: 'TEST_CLOCK',
      message: 'must not be 1 with NODE_ENV=production: anyone could move the platform day forward',
    });
  if (role !== 'all' && role !== 'api') return problems;
  for (const name of Object.keys(placeholders) as (keyof typeof placeholders)[])
    if ((raw[name] ?? placeholders[name]) === placeholders[name])
      problems.push({
        name,
        message:
          name === 'SERVICE_URL'
            ? 'is the example link; set your customer service link (NODE_ENV=production)'
            : name.startsWith('LEGAL_')
              ? "is the example; set the operating company's real details (NODE_ENV=production)"
              : name.endsWith('_XPUB')
                ? 'is the demo key of a public test wallet (anyone can spend from its addresses); set your treasury account’s extended public key (NODE_ENV=production)'
                : "is a demo placeholder; set the platform's real receiving details (NODE_ENV=production)",
      });
  return problems;
}

/**
 * Parses the environment (default `process.env`); throws ConfigError listing every problem.
 * `role` adds the production checks of the process that reads it.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  role?: Role,
): Config {
  // Empty strings mean "not set", as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k in configSchema.shape && v !== undefined && v !== ''),
  );
  const parsed = configSchema.superRefine(checkTogether).safeParse(cleaned);
  const problems = [
    ...(parsed.success
      ? []
      : parsed.error.issues.map((i) => ({ name: String(i.path[0] ?? '?'), message: i.message }))),
    ...productionProblems(cleaned, role),
  ];
  if (!parsed.success || problems.length)
    throw new ConfigError(
      problems.map((p) => `${describeValue(p.name, env[p.name])}: ${p.message}`),
    );
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  return {
    ...parsed.data,
    dbDir: path.join(dataDir, 'db'),
    uploadsDir: path.join(dataDir, 'uploads'),
    clientDir: path.resolve('dist/client'),
  };
}

/** Loads the config or prints the problems and exits: for entry points. */
export function loadConfigOrExit(role: Role): Config {
  try {
    return loadConfig(process.env, role);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}
