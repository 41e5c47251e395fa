import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from './load';
import { buildReport, formatReport } from './report';
import type { LoadDocument } from './results';
import { scenarioSchema } from './scenario';
import { startTestGateway, type TestGateway } from './test-gateway';
import { runTool } from './tool-process';

/**
 * The open model against the real gateway: clients arrive at a rate, stay their session from
 * their connection and leave; an arrival due while its phase's cap is full is dropped and
 * counted (k6's dropped_iterations). What is asserted are counts and bounds, never speeds.
 */
let gw: TestGateway;
let dir: string;

beforeAll(async () => {
  gw = await startTestGateway();
  dir = mkdtempSync(path.join(os.tmpdir(), 'load-arrivals-'));
});
afterAll(async () => {
  await gw.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('arrivals', { timeout: 60_000 }, () => {
  it('--arrival-rate with a cap below rate × session drops arrivals and never exceeds the cap', async () => {
    const json = path.join(dir, 'capped.json');
    const r = await runTool('load.ts', [
      ...['--url', gw.url, '--arrival-rate', '20/s', '--duration', '3', '--session', '1s'],
      ...['--max-clients', '8', '--sample', '0', '--channels', 'ticks:BTCUSDT', '--json', json],
    ]);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as LoadDocument;
    const report = buildReport(doc);
    const a = report.arrivals!;
    // 60 arrivals due; about 20 wanted at once, at most 8 allowed: many had to be dropped.
    expect(a.started + a.dropped).toBe(60);
    expect(a.dropped).toBeGreaterThan(0);
    expect(a.started).toBeGreaterThanOrEqual(8);
    expect(a.peakConcurrent).toBeGreaterThan(0);
    expect(a.peakConcurrent).toBeLessThanOrEqual(8);
    expect(report.figures.droppedArrivals).toBe(a.dropped);
    expect(report.connect.failed).toBe(0);
    expect(report.clients).toBe(8);
    expect(r.out).toMatch(
      new RegExp(
        `arrivals\\s+20/s for 1 s each \\(cap 8\\): ${a.started} arrived, ${a.dropped} dropped at the cap; peak ${a.peakConcurrent} connected at once`,
      ),
    );
    // Dropped arrivals are the tool's cap, not the system's failure: no threshold by default.
    expect(r.code).toBe(0);
    const strict = await runTool('merge.ts', [json, '--fail-on', 'droppedArrivals=0']);
    expect(strict.out).toMatch(/FAILED: droppedArrivals=0 broken: droppedArrivals was \d+/);
    expect(strict.code).toBe(1);
  });

  it('a scenario phase without a cap: every arrival connects, subscribes and leaves after its session', async () => {
    const scenario = scenarioSchema.parse({
      targets: [gw.url],
      phases: [
        { kind: 'arrival', rate: 10, duration: 2, session: 1 },
        { kind: 'hold', duration: 2 },
      ],
      subscribers: { channels: ['ticks:BTCUSDT'] },
      sample: 0,
    });
    const doc = await runScenario(scenario, { progress: () => {} });
    const report = buildReport(doc);
    expect(report.arrivals).toMatchObject({ started: 20, dropped: 0 });
    expect(report.arrivals!.phases).toEqual([
      { rate: 10, session: 1, maxClients: null, who: 'subscribers' },
    ]);
    expect(report.connect).toMatchObject({ connected: 20, failed: 0 });
    expect(report.subscribe).toMatchObject({ ok: 20, failed: 0 });
    // Each left by itself, a second after it connected, well before the run's end.
    expect(doc.processes[0]!.counters.plannedCloses).toBe(20);
    expect(report.errors.disconnects).toBe(0);
    expect(report.arrivals!.peakConcurrent).toBeGreaterThan(0);
    expect(report.arrivals!.peakConcurrent).toBeLessThanOrEqual(20);
    expect(formatReport(report)).toMatch(/arrivals\s+10\/s for 1 s each: 20 arrived, 0 dropped/);
  });
});
