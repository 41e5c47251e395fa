/**
 * `npm run verify:tape -- --product BTCUSDT [--from <time>] [--to <time>] [--url <server>]`
 *
 * Recomputes every tick of the revealed periods of a product from public data (the published
 * commitments, secrets and model, and the recorded tape) and checks each commitment
 * (docs/FAIRNESS.md). Prints a line per period and every problem; exits 1 when a period fails,
 * 2 on a usage error. Times are ISO 8601 or epoch milliseconds; the default range is the last
 * 24 hours.
 */
import { parseArgs } from 'node:util';
import { runCli, UsageError } from './cli';
import { httpTapeSource, verifyTape, type PeriodReport } from '@sim/verify-tape';
import { patientFetch } from './patient-fetch';

const usage = `usage: npm run verify:tape -- --product <id> [--from <time>] [--to <time>] [--url <server>]
  --product  a product id, e.g. BTCUSDT
  --from     start of the range (ISO 8601 or epoch ms; default 24 hours ago)
  --to       end of the range (default now)
  --url      the server (default OPS_URL, else http://localhost:3000)`;

function parseTime(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) throw new UsageError(`--${name}: not a time: ${value}`);
  return ms;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(':00.000Z', 'Z');

function line(r: PeriodReport): string {
  const range = `${iso(r.periodStart)} – ${iso(r.periodEnd)}`;
  switch (r.status) {
    case 'ok':
      return `${range}  ok       ${r.ticks} ticks recomputed`;
    case 'sealed':
      return `${range}  sealed   secret revealed once the period's orders have settled`;
    case 'empty':
      return `${range}  empty    no ticks (market closed or feed stopped)`;
    case 'pruned':
      return `${range}  pruned   raw ticks no longer kept: ${r.problems.join('; ') || 'none left'}`;
    case 'failed':
      return `${range}  FAILED\n${r.problems.map((p) => `    - ${p}`).join('\n')}`;
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      product: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      url: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  if (!values.product) throw new UsageError('--product is required');
  const to = parseTime(values.to, Date.now(), 'to');
  const from = parseTime(values.from, to - 86_400_000, 'from');
  if (from >= to) throw new UsageError('--from must be before --to');
  const url = values.url ?? process.env.OPS_URL ?? 'http://localhost:3000';

  const report = await verifyTape(httpTapeSource(url, patientFetch()), values.product, from, to);
  console.log(`${report.productId}: ${iso(from)} – ${iso(to)} on ${url}`);
  for (const r of report.periods) console.log(line(r));
  const count = (s: PeriodReport['status']) => report.periods.filter((r) => r.status === s).length;
  const ticks = report.periods.reduce((n, r) => n + (r.status === 'ok' ? r.ticks : 0), 0);
  console.log(
    `\n${count('ok')} periods verified (${ticks} ticks), ${report.failed} failed, ` +
      `${count('sealed')} sealed, ${count('empty')} empty, ${count('pruned')} pruned` +
      (report.history
        ? `; ${report.history} ticks of first-start history (seeded) before the first commitment`
        : '') +
      (report.uncovered ? `; ${report.uncovered} ticks NOT covered by any commitment` : ''),
  );
  return report.failed || report.uncovered ? 1 : 0;
}

runCli('verify:tape', usage, main);
