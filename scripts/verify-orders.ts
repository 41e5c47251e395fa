/**
 * `npm run verify:orders -- --token <user token> [--url <server>] [--mode real|practice|all]
 *  [--max-feed-delay <ms>]`
 *
 * Recomputes every closed order of a user from the public tape with the published rule (the
 * rules page, docs/FAIRNESS.md), a sold order with the early-close rule and the product's
 * published terms, and prints the problems of each order closed otherwise, then a summary.
 * Exits 1 when any order differs, 2 on a usage error.
 */
import { parseArgs } from 'node:util';
import { runCli, UsageError } from './cli';
import type { TradeMode } from '@shared/orders/model';
import { httpOrderSource, verifyOrders, type OrderFinding } from './order-verifier';

const usage = `usage: npm run verify:orders -- --token <token> [--url <server>] [--mode real|practice|all] [--max-feed-delay <ms>]
  --token           the user's session token (the app's login answer; USER_TOKEN if not given)
  --url             the server (default OPS_URL, else http://localhost:3000)
  --mode            which orders: real, practice or all (default all)
  --max-feed-delay  the deployment's MAX_FEED_DELAY_MS (default 3000)`;

const iso = (ms: number) => new Date(ms).toISOString();

function line({ order: o, problems }: OrderFinding): string {
  const head = `order ${o.id} (${o.mode} ${o.productId} ${o.direction} ${o.amount}, accepted ${iso(o.createdAt)})  MISMATCH`;
  return `${head}\n${problems.map((p) => `    - ${p}`).join('\n')}`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      token: { type: 'string' },
      url: { type: 'string' },
      mode: { type: 'string' },
      'max-feed-delay': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const token = values.token ?? process.env.USER_TOKEN;
  if (!token) throw new UsageError('--token is required');
  const mode = values.mode ?? 'all';
  if (!['real', 'practice', 'all'].includes(mode))
    throw new UsageError(`--mode: real, practice or all, not ${mode}`);
  const delay = values['max-feed-delay'] ?? '3000';
  if (!/^\d{1,6}$/.test(delay))
    throw new UsageError(`--max-feed-delay: milliseconds, not ${delay}`);
  const url = values.url ?? process.env.OPS_URL ?? 'http://localhost:3000';

  const modes: TradeMode[] = mode === 'all' ? ['real', 'practice'] : [mode as TradeMode];
  const report = await verifyOrders(httpOrderSource(url, token), {
    modes,
    maxFeedDelayMs: Number(delay),
    onProgress: (done, total) => {
      if (process.stderr.isTTY) process.stderr.write(`\rchecked ${done} of ${total}`);
    },
  });
  if (process.stderr.isTTY) process.stderr.write('\n');
  for (const finding of report.mismatches) console.log(line(finding));
  for (const o of report.unverifiable)
    console.log(`order ${o.id}: tape no longer kept (TICK_RETENTION_HOURS), not checked`);
  const results = Object.entries(report.byStatus)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
  console.log(
    `\n${report.checked} closed orders on ${url}${results ? ` (${results})` : ''}: ` +
      `${report.mismatches.length} ${report.mismatches.length === 1 ? 'mismatch' : 'mismatches'}, ` +
      `${report.unverifiable.length} unverifiable`,
  );
  return report.mismatches.length ? 1 : 0;
}

runCli('verify:orders', usage, main);
