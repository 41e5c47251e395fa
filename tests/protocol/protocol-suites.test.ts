import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startEngineIoServer, startSocketIoServer } from './protocol-server';

/**
 * The official protocol suites (tests/protocol/vendor, brought in whole: see its README) run with
 * their own runner, mocha, against servers built on the gateway's protocol code. The suites'
 * client talks to localhost:3000, hard-coded, so the servers listen there (on every address:
 * `localhost` may be ::1 first).
 *
 * Left out, by title, with the reason in docs/DECISIONS.md ("The protocol suites"): HTTP
 * long-polling and the upgrade from it (the gateway speaks WebSocket only), Socket.IO namespaces
 * other than `/`, and binary attachments (the gateway carries JSON text only). Every other test,
 * every WebSocket one of the Engine.IO suite among them, must pass.
 */
const PORT = 3000;
const mocha = path.resolve('node_modules/mocha/bin/_mocha');
const suiteDir = (name: string) => path.resolve('tests/protocol/vendor', name, 'test-suite');

const polling =
  'handshake HTTP long-polling (should )?successfully opens? a session|' +
  '(message|heartbeat|close) HTTP long-polling|upgrade';
const notSupported = {
  'socket.io-protocol': new RegExp(`${polling}|custom namespace|binary attachments`),
  'engine.io-protocol': new RegExp(polling),
};

interface MochaTest {
  fullTitle: string;
  err?: { message?: string };
}
interface MochaReport {
  stats: { tests: number };
  passes: MochaTest[];
  failures: MochaTest[];
  pending: MochaTest[];
}

async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '::', () => probe.close(() => resolve(true)));
  });
}

/** Runs one suite with mocha: every test, then those left out (listed, not run). */
async function runSuite(name: keyof typeof notSupported): Promise<MochaReport> {
  const run = (extra: string[]) =>
    promisify(execFile)(
      process.execPath,
      [mocha, '--reporter', 'json', '--timeout', '10000', ...extra, 'test-suite.js'],
      { cwd: suiteDir(name), maxBuffer: 16 * 1024 * 1024 },
    ).then(
      ({ stdout }) => stdout,
      // mocha exits non-zero with failures; its report is still on stdout.
      (err: { stdout?: string }) => err.stdout ?? '',
    );
  const grep = notSupported[name].source;
  const report = JSON.parse(await run(['--grep', grep, '--invert'])) as MochaReport;
  const listed = JSON.parse(await run(['--grep', grep, '--dry-run'])) as MochaReport;
  console.log(
    [
      `${name}: ${report.passes.length} passed, ${report.failures.length} failed, ` +
        `${listed.passes.length + listed.pending.length} left out (not supported)`,
      ...report.failures.map((t) => `  FAILED ${t.fullTitle}: ${t.err?.message ?? ''}`),
      ...[...listed.passes, ...listed.pending].map((t) => `  left out: ${t.fullTitle}`),
    ].join('\n'),
  );
  return report;
}

describe('the official Socket.IO and Engine.IO protocol suites', { timeout: 180_000 }, () => {
  it('socket.io-protocol: every test of what the gateway speaks passes', async () => {
    expect(await portFree(PORT), `port ${PORT} is taken: the suites need it`).toBe(true);
    const stop = await startSocketIoServer(PORT);
    try {
      const report = await runSuite('socket.io-protocol');
      expect(report.failures.map((t) => t.fullTitle)).toEqual([]);
      expect(report.passes.length).toBe(20);
    } finally {
      await stop();
    }
  });

  it('engine.io-protocol: every WebSocket test passes', async () => {
    expect(await portFree(PORT), `port ${PORT} is taken: the suites need it`).toBe(true);
    const stop = await startEngineIoServer(PORT);
    try {
      const report = await runSuite('engine.io-protocol');
      expect(report.failures.map((t) => t.fullTitle)).toEqual([]);
      expect(report.passes.length).toBe(12);
    } finally {
      await stop();
    }
  });
});
