/**
 * Performance budgets (issues 11, 21, 40): `npm run budgets`. Prints figures against their
 * budgets with a pass/fail mark each; exits 0 whatever the figures say (figures, not
 * assertions), non-zero only when the tool itself fails (build, app start, browser).
 *
 * 1. Initial JavaScript: the entry script and its modulepreloads named in dist/client/index.html,
 *    each gzipped with zlib (level 9), summed; budget 137 kB (1 kB = 1000 bytes). The same
 *    chunks' source maps show whether the chart library and the locale files stayed out.
 * 2. Navigation start → first live price on Home (budgets/first-price.ts), median of 5 cold
 *    loads after a warm-up; budget 1.2 s.
 * 3. Lighthouse mobile (budgets/lighthouse.ts), medians of 5, when the `lighthouse` package is
 *    at hand: in node_modules, or anywhere with `--lighthouse=<path to lighthouse/cli/index.js>`:
 *      npm i --prefix /tmp/lh lighthouse@12
 *      npm run budgets -- --lighthouse=/tmp/lh/node_modules/lighthouse/cli/index.js
 *
 * Before 2 and 3 the embedded app is left to finish its first-start work (budgets/rest.ts: under
 * 5% of a core over 3 s, at most 3 min); `--no-rest-wait` measures the app just started instead,
 * to see what that work costs the page. Every load and run is printed with the machine's load.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { launchBrowser, startApp, type AppUnderTest } from '../support/browser';
import { budgets, flag, loadNow, type Row } from './budgets/common';
import { firstLivePrice } from './budgets/first-price';
import { lighthouse } from './budgets/lighthouse';
import { percent, untilAtRest } from './budgets/rest';
import { initialScripts, initialSources, onDemand } from './budgets/initial-js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const distDir = path.join(repoRoot, 'dist/client');
const KB = 1000;

function buildIfStale(): void {
  const res = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'scripts/build-if-stale.ts')],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  if (res.status !== 0) throw new Error('building the client failed');
}

function initialJavaScript(): Row[] {
  const files = initialScripts(distDir);
  let raw = 0;
  let gzip = 0;
  const perFile: string[] = [];
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(distDir, file));
    const zipped = zlib.gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzip += zipped;
    perFile.push(`${path.basename(file)} ${(zipped / KB).toFixed(1)}`);
  }
  const sources = initialSources(distDir, files);
  console.log(`initial scripts (gzip kB): ${perFile.join(', ')}`);
  const has = (re: RegExp) => sources.some((s) => re.test(s));
  const kb = gzip / KB;
  const rows: Row[] = [
    {
      metric: `Initial JavaScript, gzip (${files.length} files; ${(raw / KB).toFixed(1)} kB raw)`,
      figure: `${kb.toFixed(1)} kB`,
      budget: `≤ ${budgets.initialJsKb} kB`,
      mark: kb <= budgets.initialJsKb ? 'pass' : 'FAIL',
    },
  ];
  if (sources.length) {
    const names = { charts: 'Chart library', locales: 'Locale files', zod: 'zod (form checks)' };
    for (const [key, name] of Object.entries(names)) {
      const loaded = has(onDemand[key as keyof typeof onDemand]);
      rows.push({
        metric: `${name} loaded on demand (not in initial JS)`,
        figure: loaded ? 'in initial JS' : 'on demand',
        budget: 'on demand',
        mark: loaded ? 'FAIL' : 'pass',
      });
    }
  }
  return rows;
}

function printTable(rows: Row[]): void {
  const head: Row = { metric: 'Metric', figure: 'Figure', budget: 'Budget', mark: 'info' };
  const all = [head, ...rows];
  const width = (key: keyof Row) => Math.max(...all.map((r) => r[key].length));
  const [w1, w2, w3] = [width('metric'), width('figure'), width('budget')];
  const line = (r: Row, mark: string) =>
    `${r.metric.padEnd(w1)} │ ${r.figure.padStart(w2)} │ ${r.budget.padEnd(w3)} │ ${mark}`;
  console.log(`\n${line(head, 'Result')}`);
  console.log(`${'─'.repeat(w1)}─┼─${'─'.repeat(w2)}─┼─${'─'.repeat(w3)}─┼─${'─'.repeat(8)}`);
  const marks = { pass: '✓ pass', FAIL: '✗ FAIL', 'not run': '– not run', info: '' };
  for (const r of rows) console.log(line(r, marks[r.mark]));
}

/** Waits for the app's first-start work to end, and says how long that took (issue 40). */
async function settle(app: AppUnderTest): Promise<void> {
  if (flag('no-rest-wait')) {
    console.log(`Measuring the app just started (--no-rest-wait; ${loadNow()}).`);
    return;
  }
  const rest = await untilAtRest(app.proc.child.pid!);
  const seconds = (rest.waitedMs / 1000).toFixed(1);
  console.log(
    `App CPU per 3 s since it answered ready: ${rest.shares.map(percent).join(', ')}\n` +
      (rest.atRest
        ? `App at rest after ${seconds} s (${loadNow()}).`
        : `App still busy after ${seconds} s (${loadNow()}): the figures below are taken beside it.`),
  );
}

async function main(): Promise<void> {
  buildIfStale();
  const rows = initialJavaScript();
  const app = await startApp({ SIM_BACKFILL_HOURS: '1' });
  try {
    await settle(app);
    const browser = await launchBrowser();
    try {
      rows.push(await firstLivePrice(app, browser));
    } finally {
      await browser.close();
    }
    rows.push(...lighthouse(app, repoRoot));
  } finally {
    await app.dispose();
  }
  printTable(rows);
  console.log(
    '\nFigures, not assertions: this command exits 0 whatever they are. Localhost, this machine ' +
      `(${loadNow()} at the end).`,
  );
}

main().catch((err: unknown) => {
  console.error('budgets failed:', err);
  process.exit(1);
});
