import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@tests/support/redis-server';
import { execFile } from 'node:child_process';
import { repoRoot, startEntry, waitForHttp } from '@tests/support/processes';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';

describe('the embedded entry point (npm start)', { timeout: 120_000 }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trade-embedded-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('serves health, readiness and the client on PGlite, and stops cleanly on SIGTERM', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    // No DATABASE_URL, REDIS_URL nor HOST: the embedded defaults.
    const app = startEntry('server/src/main/all.ts', {
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      HOST: '',
      METRICS_HOST: '',
    });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, 200, 110_000); // a first start backfills 24 h
      const ready = await waitForHttp(`http://127.0.0.1:${port}/readyz`);
      expect(await ready.json()).toMatchObject({ ok: true, checks: { database: true, bus: true } });
      const unknown = await fetch(`http://127.0.0.1:${port}/api/nope`);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
      expect(fs.existsSync(path.join(dataDir, 'db'))).toBe(true);

      // The long charts open with months of history on a first start: a 24/7 market, a weekday
      // one and a metal (the coarse history before the backfill, SIM_HISTORY_DAYS).
      for (const product of ['BTCUSDT', 'EURUSD', 'XAUUSD'])
        for (const interval of ['1d', '4h']) {
          const res = await fetch(
            `http://127.0.0.1:${port}/api/market/candles?product=${product}&interval=${interval}&limit=1000`,
          );
          const candles = (await res.json()) as { t: number }[];
          expect(candles.length, `${product} ${interval}`).toBeGreaterThanOrEqual(90);
        }

      // A first start seeds WELCOME and an operator token the CLI finds in DATA_DIR. The log
      // says where the token is, never what it is.
      expect(app.output()).toContain('WELCOME');
      const tokenFile = path.join(dataDir, 'operator-token');
      expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
      const token = fs.readFileSync(tokenFile, 'utf8').trim();
      expect(token.length).toBeGreaterThanOrEqual(32);
      expect(app.output()).toContain(tokenFile);
      expect(app.output()).not.toContain(token);

      // Metrics only on the private listener; the app's own port has none.
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^gateway_connected_sockets\{role="all"\} \d+$/m);

      // Loopback only: the same ports on another address of this machine refuse the connection.
      const elsewhere = otherLocalAddress();
      expect(await connects(elsewhere, port)).toBe(false);
      expect(await connects(elsewhere, metricsPort)).toBe(false);
      expect(await connects('127.0.0.1', port)).toBe(true);
      // Asynchronously: a blocked event loop would miss the server closing idle keep-alive
      // connections, and the next request would be written into a closed one.
      const cli = await new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          path.join(repoRoot, 'node_modules/.bin/tsx'),
          ['scripts/ops.ts', 'invites', 'create', '--code', 'CLI2026'],
          {
            cwd: repoRoot,
            env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), OPERATOR_TOKEN: '' },
            encoding: 'utf8',
          },
          (err, stdout, stderr) =>
            resolve({ status: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
        ),
      );
      expect(cli.stderr).toBe('');
      expect(cli.status).toBe(0);
      expect(cli.stdout).toContain('CLI2026');
      const register = (inviteCode: string, account: string) =>
        fetch(`http://127.0.0.1:${port}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            account,
            phone: '+15550100',
            inviteCode,
            password: 'pass word 1',
            passwordConfirm: 'pass word 1',
            tradePassword: '111111',
            tradePasswordConfirm: '111111',
            acceptTerms: DEFAULT_TERMS_VERSION,
          }),
        });
      expect((await register('CLI2026', 'cli_user')).status).toBe(201);
      expect((await register('WELCOME', 'welcome_user')).status).toBe(201);
    } finally {
      expect(await app.stop('SIGTERM')).toBe(0);
    }
    expect(app.output()).toContain('stopped');
  });

  it('refuses to start on a bad env value, naming the variable', async () => {
    const app = startEntry('server/src/main/all.ts', { PORT: 'abc', DATA_DIR: dataDir });
    expect(await app.exited).toBe(78);
    expect(app.output()).toMatch(/PORT="abc"/);
  });
});

/**
 * An address of this machine that is not 127.0.0.1: a network interface's, else 127.0.0.2 (on
 * Linux all of 127/8 is this machine, but a socket bound to 127.0.0.1 accepts only 127.0.0.1).
 */
function otherLocalAddress(): string {
  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal);
  return external?.address ?? '127.0.0.2';
}

/** Whether a TCP connection to host:port is accepted (refused or unreachable: false). */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 5000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
