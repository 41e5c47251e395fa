import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { replayDockerfile, type ReplayedImage } from '@tests/support/dockerfile';
import { repoRoot, waitForHttp } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';
import { spawn } from 'node:child_process';

/** What a production deployment must set (compose asks for the same). */
const productionEnv = {
  NODE_ENV: 'production',
  OPERATOR_TOKEN: 'image-test-token-0123456789',
  SERVICE_URL: 'https://help.example.org',
  DEPOSIT_BANK_NAME: 'Test Bank',
  DEPOSIT_BANK_CARD: '12345678',
  DEPOSIT_BANK_HOLDER: 'Test Holder',
  // Extended public keys other than the demo ones (BIP-32's test vectors 1 and 2).
  USDT_ERC20_XPUB:
    'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw',
  USDT_TRC20_XPUB:
    'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH',
  LEGAL_ENTITY: 'Test Trading Ltd',
  LEGAL_REGISTRATION: 'Company no. 12345678',
};

/**
 * The Dockerfile, replayed without a Docker engine (tests/support/dockerfile.ts): its build stage
 * installs with dev dependencies and compiles; its runtime stage installs production dependencies
 * only and takes the compiled output. Each role is then started as the image starts it
 * (`node dist/server/<role>.js`, NODE_ENV=production): it becomes ready, and on SIGTERM says
 * "shutting down", finishes the request it is serving, and exits 0.
 */
describe('the image, replayed (PostgreSQL)', { timeout: 600_000 }, () => {
  let t: TestDb;
  let image: ReplayedImage;
  let work: string;

  beforeAll(async () => {
    t = await openTestDb('postgres');
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'image-'));
    // The npm cache makes the two installs quick; the registry is still asked when it lacks one.
    image = replayDockerfile(repoRoot, work, { npm_config_prefer_offline: 'true' });
  }, 600_000);
  afterAll(async () => {
    await t?.drop();
    if (work) await fs.promises.rm(work, { recursive: true, force: true });
  }, 300_000);

  it('has no dev dependency, no TypeScript runner and no sources in the runtime stage', () => {
    expect(image.cmd).toEqual(['node', 'dist/server/api.js']);
    expect(image.env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0' });
    const has = (p: string) => fs.existsSync(path.join(image.dir, p));
    expect(has('dist/server/api.js') && has('dist/client/index.html')).toBe(true);
    expect(has('dist/server/migrations/0001_platform.sql')).toBe(true);
    for (const devOnly of ['node_modules/vite', 'node_modules/tsx', 'node_modules/vitest'])
      expect(has(devOnly), devOnly).toBe(false);
    expect(has('server') || has('client/src')).toBe(false);
    // Every package the compiled server imports is a production dependency, so it is installed.
    const pkg = JSON.parse(fs.readFileSync(path.join(image.dir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const bundles = fs
      .readdirSync(path.join(image.dir, 'dist/server'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => fs.readFileSync(path.join(image.dir, 'dist/server', f), 'utf8'))
      .join('\n');
    const imported = new Set(
      [...bundles.matchAll(/(?:^import .* from |\bimport\()"([^".][^"]*)"/gm)]
        .map((m) => m[1]!)
        .filter((name) => !name.startsWith('node:'))
        .map((name) =>
          name
            .split('/')
            .slice(0, name.startsWith('@') ? 2 : 1)
            .join('/'),
        ),
    );
    expect(imported.size).toBeGreaterThan(10);
    for (const name of imported) expect(pkg.dependencies, name).toHaveProperty([name]);
  });

  for (const role of ['api', 'sim', 'worker', 'gateway', 'watcher'] as const) {
    it(`${role}: starts as the image starts it, and drains and exits 0 on SIGTERM`, async () => {
      const port = await freePort();
      const child = spawn('node', [`dist/server/${role}.js`], {
        cwd: image.dir,
        env: {
          PATH: process.env.PATH!,
          ...image.env,
          ...productionEnv,
          HOST: '127.0.0.1',
          PORT: String(port),
          DATABASE_URL: urlWithSchema(t.url!, t.schema!),
          SIM_BACKFILL_HOURS: '0',
          SHUTDOWN_TIMEOUT_MS: '10000',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | string>((resolve) =>
        child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
      );
      try {
        await waitForHttp(`http://127.0.0.1:${port}/readyz`, 200, 60_000).catch((err: Error) => {
          throw new Error(`${err.message}\n${out}`);
        });
        // A request in progress when the signal comes: its headers are in, its body not yet.
        const socket = net.connect(port, '127.0.0.1');
        await new Promise((r) => socket.once('connect', r));
        const body = JSON.stringify({ account: 'nobody_here', password: 'wrong password 1' });
        const path_ = role === 'api' ? '/api/auth/login' : '/healthz';
        const method = role === 'api' ? 'POST' : 'GET';
        socket.write(
          `${method} ${path_} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
            (method === 'POST' ? `Content-Length: ${body.length}\r\n` : '') +
            'Connection: close\r\n' +
            (method === 'POST' ? '\r\n' : ''),
        );
        let answer = '';
        socket.on('data', (d: Buffer) => (answer += d.toString()));
        const closed = new Promise((r) => socket.once('close', r));
        await new Promise((r) => setTimeout(r, 200)); // the request is being read
        child.kill('SIGTERM');
        const deadline = Date.now() + 10_000;
        while (!/shutting down/.test(out) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 50));
        expect(out).toMatch(/"msg":"shutting down"/);
        socket.write(method === 'POST' ? body : '\r\n');
        await closed;
        // The request was answered in full, not cut off by the shutdown.
        expect(answer).toMatch(/^HTTP\/1\.1 (200|401|400) /);
        expect(await exited).toBe(0);
        expect(out).toMatch(/"msg":"stopped"/);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    });
  }
});
