import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';
import { startBalancer } from '@tests/support/tcp-balancer';

/**
 * Started while PostgreSQL cannot be reached, each role waits: it answers /healthz, reports not
 * ready, logs one JSON line per attempt (never a stack trace), and becomes ready once the
 * database is reachable. The database "comes up" when a TCP forwarder opens on the port its
 * DATABASE_URL names.
 */
describe('a start that waits for PostgreSQL', { timeout: 180_000 }, () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb('postgres');
  });
  afterAll(() => t?.drop());

  for (const role of ['api', 'worker', 'sim'] as const) {
    it(`${role}: not ready while the database is away, ready once it answers`, async () => {
      const dbPort = await freePort();
      const url = new URL(urlWithSchema(t.url!, t.schema!));
      const realPort = Number(url.port || 5432);
      url.port = String(dbPort);
      const port = await freePort();
      let proc: RunningProcess | null = null;
      let forwarder: Awaited<ReturnType<typeof startBalancer>> | null = null;
      try {
        proc = startEntry(`server/src/main/${role}.ts`, {
          DATABASE_URL: url.toString(),
          PORT: String(port),
          SIM_BACKFILL_HOURS: '0',
          SHUTDOWN_TIMEOUT_MS: '5000',
        });
        const base = `http://127.0.0.1:${port}`;
        await waitForHttp(`${base}/healthz`, 200, 60_000);
        const p = proc;
        // Two attempts logged: it is waiting, not failing.
        const deadline = Date.now() + 30_000;
        while ((p.output().match(/unreachable at start; retrying/g) ?? []).length < 2) {
          if (Date.now() > deadline || p.child.exitCode !== null)
            throw new Error(`no retries logged:\n${p.output()}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        expect((await fetch(`${base}/readyz`)).status).toBe(503);
        const line = p
          .output()
          .split('\n')
          .find((l) => l.includes('unreachable at start'))!;
        expect(JSON.parse(line)).toMatchObject({ dependency: 'database', level: 40 });
        expect(p.output()).not.toMatch(/^\s+at /m); // no stack trace

        forwarder = await startBalancer([realPort], dbPort);
        await waitForHttp(`${base}/readyz`, 200, 60_000);
        expect(p.output()).toMatch(/database reachable; starting/);
        expect(await p.stop('SIGTERM')).toBe(0);
      } finally {
        await proc?.stop('SIGKILL');
        await forwarder?.close();
      }
    });
  }
});
