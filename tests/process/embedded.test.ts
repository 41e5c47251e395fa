import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@tests/support/redis-server';
import { startEntry, waitForHttp } from '@tests/support/processes';

describe('the embedded entry point (npm start)', () => {
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
      await waitForHttp(`http://127.0.0.1:${port}/healthz`);
      const ready = await waitForHttp(`http://127.0.0.1:${port}/readyz`);
      expect(await ready.json()).toMatchObject({ ok: true, checks: { database: true, bus: true } });
      const unknown = await fetch(`http://127.0.0.1:${port}/api/nope`);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
      expect(fs.existsSync(path.join(dataDir, 'db'))).toBe(true);
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
