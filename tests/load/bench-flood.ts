/**
 * `npm run bench:flood`: issue 33's free-option attack, measured. Starts the embedded app (or
 * targets `--url`), opens practice orders, and about `--lead` seconds before they expire floods
 * the public market endpoints (`--requests` heavy reads over `--connections` keep-alive
 * connections). Prints the largest gap between recorded ticks around the flood, the orders'
 * outcomes and the answers' statuses, with the machine's load. Asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';
import { freeOptionAttack } from './flood';

const usage = `usage: npm run bench:flood -- [--url http://host:port --invite CODE] [--connections 300]
  [--requests 600] [--orders 6] [--lead 5] [--spread] [--vary] [--product BTCUSDT] [--runs 1]
  Without --url it starts the embedded app (npm start's entry point) on PGlite in a temporary folder.
  --spread: every connection claims an address of its own (X-Forwarded-For), so per-address
  throttles do not bite and only the feed's isolation is measured.
  --vary: every request asks for another range, so no cache or coalescing answers it.`;

const { values } = parseArgs({
  strict: true,
  options: {
    url: { type: 'string' },
    invite: { type: 'string', default: 'WELCOME' },
    connections: { type: 'string', default: '300' },
    requests: { type: 'string', default: '600' },
    orders: { type: 'string', default: '6' },
    lead: { type: 'string', default: '5' },
    product: { type: 'string', default: 'BTCUSDT' },
    runs: { type: 'string', default: '1' },
    spread: { type: 'boolean', default: false },
    vary: { type: 'boolean', default: false },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const int = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number\n${usage}`);
    process.exit(2);
  }
  return n;
};

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

let app: RunningProcess | null = null;
let dataDir: string | null = null;
let base = values.url ?? '';
if (!values.url) {
  const port = await freePort();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-flood-'));
  app = startEntry('server/src/main/all.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
  });
  base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/readyz`, 200, 180_000);
  // Let the first start's work (backfill, commitments) settle before measuring.
  await new Promise((r) => setTimeout(r, 3000));
}

try {
  for (let run = 1; run <= int('runs'); run++) {
    const loadBefore = load();
    const { flood, gaps, outcomes } = await freeOptionAttack(base, values.invite, {
      connections: int('connections'),
      requests: int('requests'),
      product: values.product,
      spread: values.spread,
      vary: values.vary,
      orders: int('orders'),
      leadMs: int('lead') * 1000,
    });
    console.log(
      [
        `run ${run}: ${flood.sent} requests over ${int('connections')} connections in ${flood.ms} ms` +
          `${values.spread ? ', one address each' : ''}${values.vary ? ', varied' : ''}; ` +
          `load ${loadBefore} before, ${load()} after`,
        `  answers: ${JSON.stringify(flood.statuses)}`,
        `  largest tick gap ${values.product}: ${gaps.largestMs} ms (at ${new Date(gaps.at).toISOString()}), ` +
          `${gaps.ticks} ticks around the flood`,
        `  orders: ${JSON.stringify(outcomes)}`,
      ].join('\n'),
    );
  }
} finally {
  await app?.stop('SIGTERM');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
