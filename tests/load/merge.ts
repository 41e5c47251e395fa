import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { printVerdict } from './load';
import { buildReport, formatReport } from './report';
import type { LoadDocument } from './results';
import { peakClients } from './scenario';
import { parseThresholds, withDefaults } from './thresholds';

/**
 * `npm run load:merge -- a.json b.json … [--json merged.json] [--fail-on …]`: one report from
 * the `--json` documents of runs made at the same time (several hosts against one system). The
 * histograms are added, so the percentiles are those of every sample together, never averages.
 */

export const mergeUsage = `usage: npm run load:merge -- a.json b.json … [--json merged.json] [--fail-on 'p99<50ms,…']`;

/**
 * One document holding every process of the given ones (the first one's scenario), every
 * server's figures, and the clients of every part: each host ran the whole scenario.
 */
export function mergeDocuments(docs: LoadDocument[]): LoadDocument {
  if (!docs.length) throw new Error('nothing to merge');
  for (const d of docs)
    if (d.format !== 'tradeapp-load/1')
      throw new Error(`not a load document (format ${String(d.format)})`);
  return {
    ...docs[0]!,
    createdAt: new Date().toISOString(),
    clients: docs.reduce((n, d) => n + (d.clients ?? peakClients(d.scenario)), 0),
    processes: docs.flatMap((d) => d.processes),
    server: docs.flatMap((d) => d.server),
    serverReadings: docs.flatMap((d) => d.serverReadings ?? []),
  };
}

function main(): number {
  if (process.argv.includes('--help')) {
    console.log(mergeUsage);
    return 0;
  }
  let files: string[];
  let out: string | undefined;
  let failOn: string | undefined;
  try {
    const parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: { json: { type: 'string' }, 'fail-on': { type: 'string' } },
    });
    files = parsed.positionals;
    out = parsed.values.json;
    failOn = parsed.values['fail-on'];
    if (!files.length) throw new Error(mergeUsage);
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  const docs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as LoadDocument);
  const merged = mergeDocuments(docs);
  if (out) writeFileSync(out, JSON.stringify(merged));
  const report = buildReport(merged);
  console.log(formatReport(report));
  return printVerdict(
    report,
    withDefaults([
      ...parseThresholds(merged.scenario.failOn ?? ''),
      ...parseThresholds(failOn ?? ''),
    ]),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = main();
  } catch (err) {
    console.error((err as Error).message);
    process.exitCode = 2;
  }
}
