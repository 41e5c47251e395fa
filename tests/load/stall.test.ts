import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDataDir } from '@tests/support/pglite-template';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';
import { oneAddressSocketEnv } from '@tests/support/socket-limits';
import { runScenario, verdict } from './load';
import { buildReport, formatReport } from './report';
import { scenarioFromFlags } from './scenario';
import { parseThresholds } from './thresholds';

/**
 * Issue 23, must-show 2: the embedded app (simulator and gateway in one process) frozen for 3 s
 * with SIGSTOP. Its ticks are stamped after the freeze, so their latency cannot show it; the
 * longest silence of the channel does, and a threshold on it fails the run.
 */
describe('a frozen embedded server', { timeout: 150_000 }, () => {
  let app: RunningProcess;
  let dataDir: string;
  let base: string;
  let metrics: string;

  beforeAll(async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'load-stall-'));
    await seedDataDir(path.join(dataDir, 'db'));
    app = startEntry('server/src/main/all.ts', {
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      DATA_DIR: dataDir,
      SIM_BACKFILL_HOURS: '0',
      SIM_TICKS_PER_SECOND: '4',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      ...oneAddressSocketEnv,
    });
    base = `http://127.0.0.1:${port}`;
    metrics = `http://127.0.0.1:${metricsPort}/metrics`;
    await waitForHttp(`${base}/readyz`, 200, 90_000);
  }, 120_000);

  afterAll(async () => {
    if (app) {
      app.child.kill('SIGCONT');
      await app.stop('SIGTERM');
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a 3 s SIGSTOP shows as a silence of at least 3 s and breaks silence<2s', async () => {
    const scenario = scenarioFromFlags({
      url: base,
      clients: 20,
      rampPerSec: 100,
      durationSec: 10,
      channels: ['market', 'ticks:BTCUSDT'],
      sample: 1,
      connectTimeoutMs: 10_000,
      metricsUrls: [metrics],
    });
    const pid = app.child.pid!;
    // Frozen from the second progress line on: the run has begun and reached its steady window,
    // whatever the setup before it took on a busy machine.
    let frozen = false;
    let thaw: NodeJS.Timeout | undefined;
    const progress = (line: string) => {
      if (frozen || !/^t=([2-9]|\d\d)/.test(line)) return;
      frozen = true;
      process.kill(pid, 'SIGSTOP');
      thaw = setTimeout(() => process.kill(pid, 'SIGCONT'), 3000);
    };
    const doc = await runScenario(scenario, { progress });
    clearTimeout(thaw);
    expect(frozen).toBe(true);
    const report = buildReport(doc);
    console.log(formatReport(report));

    const ticks = report.silences.find((s) => s.channel === 'ticks:BTCUSDT')!;
    expect(ticks.longestMs).toBeGreaterThanOrEqual(3000);
    expect(report.figures.silence).toBeGreaterThanOrEqual(3000);
    // Read once a second through the run, every reading kept in the document.
    expect(doc.serverReadings[0]!.readings.length).toBeGreaterThanOrEqual(5);
    // The reading asked for during the freeze is answered after it, with the freeze in it.
    expect(report.figures.serverLoopMax).toBeGreaterThanOrEqual(3000);
    // The embedded mode is recognised from the server's own metrics (role "all").
    expect(report.warnings.join('\n')).toMatch(/embedded mode/);
    const { breaches } = verdict(report, parseThresholds('silence<2s'));
    expect(breaches.map((b) => b.message)).toEqual([
      expect.stringMatching(/^silence<2s broken: silence was [\d.]+ ms \(off by [\d.]+ ms\)$/),
    ]);
  });
});
