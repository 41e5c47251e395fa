import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';
import { freeOptionAttack } from '../load/flood';

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
    const { flood, gaps, outcomes } = await freeOptionAttack(base, 'WELCOME', {
      connections: 300,
      requests: 600,
      product: 'BTCUSDT',
      spread: true,
      vary: true,
      orders: 6,
      leadMs: 5000,
    });
    console.log(
      `embedded flood: ${JSON.stringify(flood.statuses)} in ${flood.ms} ms; largest tick gap ` +
        `${gaps.largestMs} ms (${gaps.ticks} ticks); orders ${JSON.stringify(outcomes)}`,
    );
    // The flood happened: every request was answered (served or refused), none was lost.
    expect(flood.sent).toBe(600);
    expect(flood.statuses.error ?? 0).toBe(0);
    // Ticks are jittered 0.5–1.5 mean intervals apart (2 a second: at most 750 ms); on a machine
    // busy with the rest of the suite the feed's own cadence reaches about 1 s without any flood
    // (bench:flood with --requests 0). The attack made 7-12 s silences, and voids begin past
    // MAX_FEED_DELAY_MS; 1.5 s is the cadence with room for the suite's noise, far below both.
    // Voids begin past MAX_FEED_DELAY_MS (3 s) and the attack made 7-12 s silences; the feed's
    // own cadence on a machine busy with the whole suite has reached 1.5 s (CI: 1 506 ms, scaled),
    // so the bound sits between them. The cadence itself is measured by bench:flood, not here.
    expect(gaps.largestMs).toBeLessThan(2500);
    expect(Object.keys(outcomes).filter((k) => k.startsWith('void'))).toEqual([]);
    expect(Object.values(outcomes).reduce((a, b) => a + b, 0)).toBe(6);
  });
});
