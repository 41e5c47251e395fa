import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from './test-gateway';
import { runTool } from './tool-process';

/**
 * The outside report: 1 000 clients through a proxy capped at 250 sockets, 750 connects failed,
 * and the run exited 0. Here the gateway itself drops every TCP connection over 250, and the run
 * must fail by default, say how many of how many failed and why, and let `--fail-on` decide.
 */
let gw: TestGateway;
const connections = () =>
  new Promise<number>((resolve, reject) =>
    gw.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
  );
/** Each run starts with the cap free: the previous run's sockets are gone on the server too. */
const drained = () =>
  vi.waitFor(
    async () => {
      if ((await connections()) > 0) throw new Error('the previous run’s sockets still open');
    },
    { timeout: 20_000, interval: 20 },
  );

beforeAll(async () => {
  gw = await startTestGateway({ maxConnections: 250 });
});
afterAll(() => gw.stop());
beforeEach(drained);

const flags = [
  ...['--clients', '1000', '--ramp', '1000/s', '--duration', '3', '--sample', '0'],
  ...['--channels', 'ticks:BTCUSDT'],
];

describe('connect failures', { timeout: 60_000 }, () => {
  it('750 of 1 000 refused fails the run by default and says why', async () => {
    const r = await runTool('load.ts', ['--url', gw.url, ...flags]);
    expect(r.out).toMatch(/connect\s+250 connected, 750 failed/);
    expect(r.out).toMatch(/failures\s+750× reset/);
    expect(r.out).toMatch(
      /FAILED: connectFailures=0 \(default\) broken: connectFailures was 750 \(off by 750\)/,
    );
    expect(r.out).toMatch(/750 of 1000 connects failed \(75\.0%\): 750× reset/);
    expect(r.code).toBe(1);
  });

  it('--fail-on on a connect-failure figure replaces the default', async () => {
    const tolerant = await runTool('load.ts', [
      ...['--url', gw.url, ...flags, '--fail-on', 'connectFailureRate<80%'],
    ]);
    expect(tolerant.out).toMatch(/passed: connectFailureRate<80%$/m);
    expect(tolerant.code).toBe(0);
    await drained();
    const strict = await runTool('load.ts', [
      ...['--url', gw.url, ...flags, '--fail-on', 'connectFailureRate<10%,connectFailures<=100'],
    ]);
    expect(strict.out).toMatch(
      /FAILED: connectFailureRate<10% broken: connectFailureRate was 75% \(off by 65%\)/,
    );
    expect(strict.out).toMatch(/FAILED: connectFailures<=100 broken: connectFailures was 750/);
    expect(strict.out).not.toMatch(/\(default\)/);
    expect(strict.code).toBe(1);
  });

  it('nothing listening: every connect refused, by that name', async () => {
    const r = await runTool('load.ts', [
      ...['--url', 'http://127.0.0.1:1', '--clients', '3', '--duration', '1', '--sample', '0'],
    ]);
    expect(r.out).toMatch(/failures\s+3× refused/);
    expect(r.code).toBe(1);
  });
});
