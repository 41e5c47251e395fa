import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from './load';
import { startTestGateway, type TestGateway } from './test-gateway';
import { runTool } from './tool-process';

/** The defects issue 23 lists, each shown fixed against a real gateway or a silent server. */

const here = import.meta.dirname;
let gw: TestGateway;
// Accepts TCP connections and never answers: every handshake hangs until the client gives up.
let silent: Server;
let silentUrl: string;
const held: Socket[] = [];

beforeAll(async () => {
  gw = await startTestGateway();
  silent = createServer((s) => held.push(s));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});

afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((r) => silent.close(r));
  await gw.stop();
});

describe('load tool defects (issue 23)', () => {
  it('an unknown channel names the server error code and exits 1', async () => {
    const r = await runTool('load.ts', [
      ...['--url', gw.url, '--clients', '3', '--duration', '2', '--sample', '1'],
      ...['--channels', 'ticks:NOPE'],
    ]);
    expect(r.out).toMatch(/subscribe\s+0 ok, 3 failed: 3× NOT_FOUND/);
    expect(r.out).toMatch(/sample .*1× subscribe NOT_FOUND/);
    expect(r.out).toMatch(/FAILED: 3 subscriptions refused \(NOT_FOUND/);
    expect(r.code).toBe(1);
  });

  it('a broken threshold exits 1 naming it; a channel the tool does not know exits 2', async () => {
    const r = await runTool('load.ts', [
      ...['--url', gw.url, '--clients', '2', '--duration', '2', '--sample', '0'],
      ...['--fail-on', 'p99<0ms,connectFailures=0'],
    ]);
    expect(r.out).toMatch(/FAILED: p99<0ms broken: p99 was [\d.]+ ms \(off by/);
    expect(r.out).not.toMatch(/connectFailures=0 broken/);
    expect(r.code).toBe(1);
    const bad = await runTool('load.ts', ['--url', gw.url, '--channels', 'candles']);
    expect(bad.out).toMatch(/market or ticks:<id>/);
    expect(bad.code).toBe(2);
  });

  it('a scenario whose traders cannot sign in fails naming the step, without a stack trace', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'load-scn-'));
    const scenario = {
      targets: ['http://127.0.0.1:1'], // nothing listens: refused at once
      phases: [{ kind: 'hold', duration: 1 }],
      subscribers: { channels: ['market'] },
      traders: { count: 2, orderEvery: 5 },
      sample: 0,
    };
    const file = path.join(dir, 's.json');
    writeFileSync(file, JSON.stringify(scenario));
    // The operator token comes from the environment.
    const none = await runTool('load.ts', ['--scenario', file], { OPERATOR_TOKEN: '' });
    expect(none.out).toMatch(/need the operator token \(OPERATOR_TOKEN in the environment\)/);
    expect(none.code).toBe(1);
    const r = await runTool('load.ts', ['--scenario', file], { OPERATOR_TOKEN: 'nope-nope' });
    expect(r.out).toMatch(/run failed: traders could not start: invite: fetch failed/);
    expect(r.out).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(1);
    // The scenario's field still works, with a warning.
    const old = path.join(dir, 'old.json');
    writeFileSync(old, JSON.stringify({ ...scenario, operatorToken: 'nope-nope' }));
    const dep = await runTool('load.ts', ['--scenario', old], { OPERATOR_TOKEN: '' });
    expect(dep.out).toMatch(/warning: operatorToken in a scenario file is deprecated/);
    expect(dep.out).toMatch(/invite: fetch failed/);
    rmSync(dir, { recursive: true, force: true });
    const bad = await runTool('load.ts', ['--scenario', path.join(here, 'scenarios', 'nope.yaml')]);
    expect(bad.code).toBe(2);
  });

  it('a URL with a path is refused, not silently dropped', async () => {
    const r = await runTool('load.ts', ['--url', `${gw.url}/trade`]);
    expect(r.out).toMatch(/without a path/);
    expect(r.code).toBe(2);
  });

  it('the sample sockets honour --connect-timeout and say why they failed', async () => {
    const report = await runLoad({
      url: silentUrl,
      clients: 2,
      channels: ['market'],
      durationSec: 3,
      rampPerSec: 10,
      sample: 1,
      connectTimeoutMs: 1000,
      progress: () => {},
    });
    expect(report.sample).toMatchObject({ clients: 1, connected: 0 });
    expect(report.sample!.failures).toEqual({ 'connect_error timeout': 1 });
    expect(report.connect).toMatchObject({ failed: 2, failures: { timeout: 2 } });
  });

  it('connects still pending when the run ends are abandoned, not counted as failures', async () => {
    const report = await runLoad({
      url: silentUrl,
      clients: 3,
      channels: ['market'],
      durationSec: 2,
      rampPerSec: 10,
      sample: 0,
      connectTimeoutMs: 60_000,
      progress: () => {},
    });
    expect(report.connect).toMatchObject({ connected: 0, failed: 0, abandoned: 3, failures: {} });
    expect(report.errors.connectFailures).toBe(0);
  });

  it.each([
    ['load.ts', /^usage: npm run load/],
    ['merge.ts', /^usage: npm run load:merge/],
    ['tick-latency.ts', /^usage: npm run bench:latency/],
    ['bench-orders.ts', /^usage: npm run bench:orders/],
    ['bench-gateway.ts', /^usage: npm run bench:gateway/],
  ])('%s --help prints its usage and exits 0', async (script, usage) => {
    const r = await runTool(script, ['--help']);
    expect(r.out.trim()).toMatch(usage);
    expect(r.out).not.toMatch(/\n\s+at /); // no stack trace
    expect(r.code).toBe(0);
  });
});
