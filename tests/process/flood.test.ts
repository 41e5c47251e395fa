import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { seedDataDir } from '@tests/support/pglite-template';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';
import { attackAndCheck } from '@tests/support/free-option';

/**
 * Issue 33, must-show 1: the free-option attack on the embedded app (`npm start`'s entry point,
 * PGlite): a trader holds practice orders and, 5 s before they expire, 600 heavy anonymous market
 * reads arrive over 300 keep-alive connections. Each connection claims an address of its own and
 * each request another range, so neither the per-address throttles nor the shared cache answer
 * them: only the simulator's own thread and the database's tape lane keep the feed's rhythm.
 */
describe('a flood of public reads against the embedded app', { timeout: 240_000 }, () => {
  let app: RunningProcess;
  let dataDir: string;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'flood-'));
    await seedDataDir(path.join(dataDir, 'db'));
    app = startEntry('server/src/main/all.ts', {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // A thousand 1-minute candles of history, so each read is as heavy as the review's.
      SIM_BACKFILL_HOURS: '17',
      SIM_HISTORY_DAYS: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
    });
    base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/readyz`, 200, 150_000);
  }, 180_000);

  afterAll(async () => {
    await app?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps every gap between ticks at the feed's own cadence and voids no order", async () => {
    await attackAndCheck(base, 'WELCOME', 'embedded');
  });
});
