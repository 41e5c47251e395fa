import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@tests/support/redis-server';
import { spawnSync } from 'node:child_process';
import { repoRoot, startEntry, waitForHttp } from '@tests/support/processes';

describe('the embedded entry point (npm start)', { timeout: 120_000 }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trade-embedded-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('serves health, readiness and the client on PGlite, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    // No DATABASE_URL and no REDIS_URL: the embedded defaults.
    const app = startEntry('server/src/main/all.ts', {
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
    });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, 200, 110_000); // a first start backfills 24 h
      const ready = await waitForHttp(`http://127.0.0.1:${port}/readyz`);
      expect(await ready.json()).toMatchObject({ ok: true, checks: { database: true, bus: true } });
      const unknown = await fetch(`http://127.0.0.1:${port}/api/nope`);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
      expect(fs.existsSync(path.join(dataDir, 'db'))).toBe(true);

      // A first start seeds WELCOME and an operator token the CLI finds in DATA_DIR.
      expect(app.output()).toContain('WELCOME');
      expect(fs.statSync(path.join(dataDir, 'operator-token')).mode & 0o777).toBe(0o600);
      const cli = spawnSync(
        path.join(repoRoot, 'node_modules/.bin/tsx'),
        ['scripts/ops.ts', 'invites', 'create', '--code', 'CLI2026'],
        {
          cwd: repoRoot,
          env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), OPERATOR_TOKEN: '' },
          encoding: 'utf8',
        },
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
