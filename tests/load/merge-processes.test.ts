import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from './tool-process';
import { buildReport, type LoadReport } from './report';
import { decodeHistogram, type LoadDocument } from './results';
import { startTestGateway, type TestGateway } from './test-gateway';

/**
 * Issue 23, must-show 3: `--processes 2 --json`, and `load:merge` of two separate single-process
 * runs, against one process at the same load (40 clients on a tick every 50 ms). The merged
 * figures come from added histograms; the figures are printed to compare, not asserted (speed is
 * not a test's business): what is asserted is that nothing was lost or averaged on the way.
 */
let gw: TestGateway;
let dir: string;

beforeAll(async () => {
  gw = await startTestGateway();
  dir = mkdtempSync(path.join(os.tmpdir(), 'load-merge-'));
});
afterAll(async () => {
  await gw.stop();
  rmSync(dir, { recursive: true, force: true });
});

const flags = (clients: number) => [
  ...['--url', gw.url, '--clients', String(clients), '--duration', '5', '--ramp', '100/s'],
  ...['--sample', '1', '--channels', 'market,ticks:BTCUSDT'],
];
const read = (file: string) =>
  JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as LoadDocument;
const line = (name: string, r: LoadReport) => {
  const l = r.tickLatency;
  return `${name}: ${r.processes} process(es), ${r.connect.connected} clients, tick p50 ${l.p50.toFixed(2)} p90 ${l.p90.toFixed(2)} p99 ${l.p99.toFixed(2)} max ${l.max.toFixed(2)} ms (n=${l.count}), ${r.deliveries.ticksPerSec.toFixed(0)} ticks/s`;
};

describe('merging processes and hosts', { timeout: 120_000 }, () => {
  it('--processes 2 and load:merge of two runs give one report from added histograms', async () => {
    const one = await runTool('load.ts', [...flags(40), '--json', path.join(dir, 'one.json')]);
    expect(one.code).toBe(0);
    const two = await runTool('load.ts', [
      ...flags(40),
      '--processes',
      '2',
      '--json',
      path.join(dir, 'two.json'),
    ]);
    expect(two.code).toBe(0);
    // Two hosts, as it were: two separate runs at the same time, half the clients each.
    const [a, b] = await Promise.all(
      ['a', 'b'].map((n) =>
        runTool('load.ts', [...flags(20), '--json', path.join(dir, `${n}.json`)]),
      ),
    );
    expect([a!.code, b!.code]).toEqual([0, 0]);
    const merged = await runTool('merge.ts', [
      ...[path.join(dir, 'a.json'), path.join(dir, 'b.json')],
      ...['--json', path.join(dir, 'merged.json'), '--fail-on', 'subscribeFailures=0,gaps=0'],
    ]);
    expect(merged.out).toMatch(
      /passed: subscribeFailures=0, gaps=0, connectFailures=0 \(default\)/,
    );
    // The header counts both parts' clients, not the first part's.
    expect(merged.out).toMatch(/── load report: 40 clients →/);
    expect(merged.code).toBe(0);

    const docs = { one: read('one.json'), two: read('two.json'), merged: read('merged.json') };
    expect(docs.two.processes.map((p) => p.index)).toEqual([0, 1]);
    expect(new Set(docs.two.processes.map((p) => p.pid)).size).toBe(2);
    expect(docs.merged.processes.length).toBe(2);
    const reports = Object.fromEntries(Object.entries(docs).map(([k, d]) => [k, buildReport(d)]));
    for (const [k, r] of Object.entries(reports)) {
      expect(r.connect.connected, k).toBe(40);
      expect(r.subscribe.failed, k).toBe(0);
      expect(r.tickLatency.count, k).toBeGreaterThan(0);
      console.log(line(k, r));
    }
    // Each process's histogram adds into the report's: every sample counted once.
    for (const d of [docs.two, docs.merged]) {
      const total = d.processes.reduce(
        (n, p) => n + decodeHistogram(p.histograms.tick).totalCount,
        0,
      );
      expect(buildReport(d).tickLatency.count).toBe(total);
      expect(buildReport(d).connect.connected).toBe(
        d.processes.reduce((n, p) => n + p.counters.connected, 0),
      );
    }
    // The per-second series of every process is in the document.
    expect(docs.two.processes.every((p) => p.series.length >= 4)).toBe(true);
  });
});
