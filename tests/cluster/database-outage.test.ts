import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tick } from '@shared/market/model';
import { createRedisBus } from '@infra/bus/redis';
import type { Bus } from '@infra/bus';
import { checkLedger } from '@server/modules/ledger/ledger';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { startFaultProxy, type FaultProxy } from '@tests/support/fault-proxy';
import { startSimApiWorker, type RunningProcess } from '@tests/support/processes';
import { practiceOrderTraffic, waitUntil } from '@tests/support/order-traffic';
import { untilFresh } from '../load/flood';

const OPERATOR_TOKEN = `dbout-${randomBytes(12).toString('hex')}`;

/**
 * Issue 34: PostgreSQL out of reach for 10 s (longer than the simulator's 3 s lease) under a
 * trader's orders, between the processes and the database (a proxy the test breaks). Every
 * process lives through it; the api answers 503 UNAVAILABLE, never 500; the simulator publishes
 * nothing it could not write, and its feed is back within seconds of the database's return.
 */
describe('a 10 s PostgreSQL outage', { timeout: 240_000 }, () => {
  let t: TestDb;
  let proxy: FaultProxy;
  let bus: Bus;
  const procs: Record<string, RunningProcess> = {};
  const published: Tick[] = [];
  let apiUrl = '';

  beforeAll(async () => {
    t = await openTestDb('postgres');
    const direct = new URL(t.url!);
    proxy = await startFaultProxy(Number(direct.port || 5432));
    const viaProxy = new URL(urlWithSchema(t.url!, t.schema!));
    viaProxy.port = String(proxy.port);
    const namespace = `dbout-${randomBytes(3).toString('hex')}`;
    const env = {
      DATABASE_URL: viaProxy.toString(),
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_NAMESPACE: namespace,
      SIM_BACKFILL_HOURS: '1',
      SIM_HISTORY_DAYS: '0',
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      OPERATOR_TOKEN,
      LOG_LEVEL: 'warn',
    };
    bus = createRedisBus({ url: process.env.REDIS_URL! }, { namespace });
    await bus.subscribe('tick', ({ tick }) => {
      if (tick.id === 'BTCUSDT') published.push(tick);
    });
    ({ apiUrl } = await startSimApiWorker(env, procs));
    await untilFresh(apiUrl, 'BTCUSDT');
  }, 180_000);

  afterAll(async () => {
    await Promise.all(Object.values(procs).map((p) => p.stop('SIGTERM')));
    await bus?.close();
    await proxy?.close();
    await t?.drop();
  });

  it('keeps every process alive, answers 503 meanwhile, and publishes only what the tape holds', async () => {
    const traffic = await practiceOrderTraffic(apiUrl, OPERATOR_TOKEN);
    const { answers } = traffic;
    await waitUntil(() => answers.filter((a) => a.status === 201).length >= 5, 20_000, 'orders');

    const downAt = Date.now();
    proxy.mode('refuse');
    await waitUntil(
      // A keep-alive connection the api closed meanwhile answers ECONNRESET: ask again.
      async () => (await fetch(`${apiUrl}/readyz`).catch(() => null))?.status === 503,
      5000,
      'the api not ready',
    );
    await new Promise((r) => setTimeout(r, 10_000)); // the outage: 10 s, past the 3 s lease
    proxy.mode('pass');
    const backAt = Date.now();
    const lastBefore = published.filter((tk) => tk.ts < downAt).at(-1);
    await waitUntil(
      () => published.some((tk) => tk.ts > backAt),
      15_000,
      'a new tick after the database returned',
    );
    const feedBackMs = published.find((tk) => tk.ts > backAt)!.ts - backAt;
    await waitUntil(
      () => answers.some((a) => a.at > backAt && a.status === 201),
      15_000,
      'an order accepted after the database returned',
    );
    await traffic.stop();
    const during = answers.filter((a) => a.at > downAt && a.at < backAt);
    const out: Record<string, number> = {};
    for (const a of during)
      out[`${a.status} ${a.code ?? ''}`] = (out[`${a.status} ${a.code ?? ''}`] ?? 0) + 1;
    console.log(
      `database outage: during ${JSON.stringify(out)}; feed back ${feedBackMs} ms after the database; ` +
        `${published.filter((tk) => tk.ts > downAt && tk.ts < backAt).length} ticks published during it`,
    );

    for (const [role, p] of Object.entries(procs))
      expect(p.child.exitCode, `${role} exited: ${p.output().slice(-2000)}`).toBeNull();
    expect(answers.filter((a) => a.status === 0 || (a.status >= 500 && a.status !== 503))).toEqual(
      [],
    );
    expect(during.some((a) => a.status === 503)).toBe(true);
    expect(feedBackMs).toBeLessThan(10_000);
    // Every tick anyone heard is on the tape, price for price: nothing published went unwritten.
    const tape = (await (
      await fetch(
        `${apiUrl}/api/market/ticks?product=BTCUSDT&from=${lastBefore?.ts ?? downAt - 5000}&to=${Date.now()}&limit=1000`,
      )
    ).json()) as { seq: number; price: string }[];
    const onTape = new Map(tape.map((r) => [r.seq, r.price]));
    const heard = published.filter((tk) => tk.ts >= (lastBefore?.ts ?? downAt - 5000));
    expect(heard.length).toBeGreaterThan(0);
    for (const tk of heard) expect(onTape.get(tk.seq), `tick ${tk.seq}`).toBe(tk.price);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });
});
