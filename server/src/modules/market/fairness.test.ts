import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FairnessPeriod, Tick } from '@shared/market/model';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import type { Bus } from '@infra/bus';
import { defaultCatalogue } from '@sim/catalogue';
import { commitmentOf } from '@sim/fairness';
import { startFeed, type Feed, type FeedOptions } from '@sim/feed';
import { httpTapeSource, verifyTape } from '@sim/verify-tape';
import { buildTestApi, type TestApi } from '@tests/support/api';
import { bulkUsers } from '@tests/support/bulk-orders';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { runScript } from '@tests/support/processes';
import { WEDNESDAY_AFTERNOON } from '@tests/support/market';
import { createFairnessService } from './fairness.service';

const catalogue = defaultCatalogue.filter((p) => p.id === 'BTCUSDT' || p.id === 'ETHUSDT');
/** A clock at real speed from `start` (a past Wednesday: every period ends long before now). */
const clockFrom = (start: number) => {
  const offset = Date.now() - start;
  return () => Date.now() - offset;
};

describe.each(dbDrivers())('the provably fair live feed on %s', (kind) => {
  let t: TestDb;
  let bus: Bus;
  let api: TestApi;
  let server: http.Server;
  let url: string;
  const feeds: Feed[] = [];
  const closers: (() => Promise<unknown>)[] = [];

  beforeEach(async () => {
    t = await openTestDb(kind);
    bus = createMemoryBus(createMemoryHub());
    api = await buildTestApi(t.db, { bus });
    server = http.createServer(api.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    for (const f of feeds.splice(0)) await f.stop();
    await new Promise((r) => server.close(r));
    await api.close();
    await bus.close();
    await t.drop();
  });

  /**
   * The address of another api process over the same database and bus: an api keeps its
   * answers about the past tape for minutes (DECISIONS.md, Public market reads and order
   * throttles), and these tests change the stored tape behind its back.
   */
  const freshApi = async () => {
    const other = await buildTestApi(t.db, { bus });
    const otherServer = http.createServer(other.app);
    await new Promise<void>((r) => otherServer.listen(0, '127.0.0.1', r));
    closers.push(async () => {
      await new Promise((r) => otherServer.close(r));
      await other.close();
    });
    return `http://127.0.0.1:${(otherServer.address() as AddressInfo).port}`;
  };

  const start = async (o: Partial<FeedOptions>) => {
    const feed = await startFeed({
      db: t.db,
      bus,
      catalogue,
      seed: 11,
      randomness: { kind: 'committed', periodMs: 1000 },
      ticksPerSecond: 20,
      backfillHours: 0,
      retentionHours: 48,
      flushMs: 50,
      ...o,
    });
    feeds.push(feed);
    return feed;
  };
  const stop = async (feed: Feed) => {
    feeds.splice(feeds.indexOf(feed), 1);
    await feed.stop();
  };
  const tape = async (id: string) =>
    (
      await t.db.query<{ seq: number; ts: number; price: number; qty: number }>(
        'SELECT seq, ts, price, qty FROM ticks WHERE product_id = $1 ORDER BY seq',
        [id],
      )
    ).rows;
  /** Runs until `id` has `n` live ticks on the tape. */
  const runUntil = async (id: string, n: number, after = 0) =>
    vi.waitFor(
      async () => {
        const rows = await tape(id);
        expect(rows.filter((r) => r.seq > after).length).toBeGreaterThanOrEqual(n);
      },
      { timeout: 30_000, interval: 100 },
    );
  const periods = async (id: string, from = 0, to = Date.now() + 86_400_000) =>
    (await api.http.get(`/api/market/fairness?product=${id}&from=${from}&to=${to}&limit=500`))
      .body as FairnessPeriod[];

  it('cannot be predicted from the code and the configuration: two feeds started alike differ, their backfill does not', async () => {
    // The attacker's best effort: the same code, configuration and seed, on a database of its own.
    const other = await openTestDb(kind);
    const twinBus = createMemoryBus(createMemoryHub());
    const alike = (db: typeof t.db, b: Bus, now: () => number): FeedOptions => ({
      db,
      bus: b,
      catalogue,
      seed: 11,
      randomness: { kind: 'committed', periodMs: 1000 },
      ticksPerSecond: 10,
      backfillHours: 0.05,
      retentionHours: 48,
      flushMs: 50,
      now,
    });
    try {
      // A first start at a stopped instant: history only, which is the seeded backfill.
      for (const [db, b] of [
        [t.db, bus],
        [other.db, twinBus],
      ] as const)
        await (await startFeed(alike(db, b, () => WEDNESDAY_AFTERNOON))).stop();
      const rows = async (db: typeof t.db) =>
        (
          await db.query<{ seq: number; ts: number; price: number }>(
            "SELECT seq, ts, price FROM ticks WHERE product_id = 'BTCUSDT' ORDER BY seq",
          )
        ).rows;
      const history = await rows(t.db);
      expect(history.length).toBeGreaterThan(100);
      expect(await rows(other.db)).toEqual(history);
      const backfilled = history.at(-1)!.seq;

      // Then both run live from the same instant, with the same clock.
      const clock = clockFrom(WEDNESDAY_AFTERNOON);
      feeds.push(await startFeed(alike(t.db, bus, clock)));
      const twin = await startFeed(alike(other.db, twinBus, clock));
      await runUntil('BTCUSDT', 20, backfilled);
      await vi.waitFor(
        async () => expect((await rows(other.db)).length).toBeGreaterThan(history.length + 20),
        {
          timeout: 30_000,
        },
      );
      await twin.stop();
      await stop(feeds[0]!);
      const live = async (db: typeof t.db) =>
        (await rows(db))
          .filter((r) => r.seq > backfilled)
          .slice(0, 20)
          .map((r) => r.price);
      const [mine, theirs] = [await live(t.db), await live(other.db)];
      // The twin's prices and moves predict nothing of the real ones.
      expect(mine).not.toEqual(theirs);
      const moves = (p: number[]) =>
        p.map((x, i) => Math.sign(x - (p[i - 1] ?? history.at(-1)!.price)));
      expect(moves(mine)).not.toEqual(moves(theirs));
    } finally {
      await twinBus.close();
      await other.drop();
    }
  });

  it('replays exactly with the explicit seeded option (tests and benchmarks only)', async () => {
    const clock = { now: WEDNESDAY_AFTERNOON };
    const seeded = async (db: typeof t.db) => {
      const feed = await startFeed({
        db,
        bus: createMemoryBus(createMemoryHub()),
        catalogue,
        seed: 11,
        randomness: { kind: 'seeded' },
        ticksPerSecond: 20,
        backfillHours: 0.02,
        retentionHours: 48,
        now: () => clock.now,
      });
      await feed.stop();
      return (
        await db.query<{ seq: number; price: number }>(
          "SELECT seq, price FROM ticks WHERE product_id = 'BTCUSDT' ORDER BY seq",
        )
      ).rows;
    };
    const other = await openTestDb(kind);
    try {
      expect(await seeded(t.db)).toEqual(await seeded(other.db));
    } finally {
      await other.drop();
    }
  });

  it('publishes each commitment before its period and keeps the secret sealed until revealed', async () => {
    const live: Tick[] = [];
    await bus.subscribe('tick', ({ tick }) => void live.push(tick));
    await start({});
    await runUntil('BTCUSDT', 10);
    const now = Date.now();
    const list = await periods('BTCUSDT', now - 5000);
    const current = list.find((p) => p.periodStart <= now && now < p.periodEnd)!;
    const ahead = list.filter((p) => p.periodStart > now);
    expect(current).toBeDefined();
    // Periods are committed to ahead of time (at least two minutes).
    expect(ahead.length).toBeGreaterThanOrEqual(100);
    for (const p of list) {
      expect(p.secret).toBeNull();
      expect(p.commitment).toMatch(/^[0-9a-f]{64}$/);
      expect(p.model).toEqual(
        expect.objectContaining({ version: 1, annualVol: 0.6, precision: 2 }),
      );
    }
    // Every published tick lies in a period committed to before it.
    const btc = live.filter((x) => x.id === 'BTCUSDT');
    for (const tick of btc) {
      const p = list.find((x) => x.periodStart <= tick.ts && tick.ts < x.periodEnd);
      if (p) expect(p.committedAt).toBeLessThan(tick.ts);
    }
    // Nothing on the socket side of the bus carries a secret.
    expect(JSON.stringify(live)).not.toMatch(/[0-9a-f]{64}/);
  });

  it('reveals a period only once it has ended and every order that could depend on it has settled', async () => {
    await start({});
    await runUntil('BTCUSDT', 30);
    // The order must come more than the margin (1 s) after a period's end, or no period is old
    // enough to be revealed beside it: periods are aligned to the clock, so 30 ticks after the
    // start may still be inside the first period or less than 1 s after it.
    const firstEnd = Math.min(...(await periods('BTCUSDT')).map((p) => p.periodEnd));
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(firstEnd + 1200), {
      timeout: 10_000,
      interval: 50,
    });
    const [userId] = await bulkUsers(t.db, 1, 1_000_000);
    // An open BTCUSDT order accepted now (by the database clock).
    const { rows } = await t.db.query<{ id: number; accepted: number }>(
      `INSERT INTO orders (user_id, product_id, direction, amount, duration, rate_bp, accepted_ms, expires_at, expires_ms)
       SELECT $1, 'BTCUSDT', 'up', 1000, 30, 8000, a, now() + interval '30 seconds', a + 30000
       FROM (SELECT floor(extract(epoch FROM now()) * 1000)::bigint AS a) x
       RETURNING id, accepted_ms AS accepted`,
      [userId],
    );
    const order = rows[0]!;
    const fairness = createFairnessService({
      db: t.db,
      oldestOpenOrders: () => api.orders.oldestOpenByProduct(),
      spec: (id) => api.market.spec(id),
      marginMs: 1000,
    });
    // Wait until a BTCUSDT period that began after the order has ended (with the margin).
    await vi.waitFor(
      async () => {
        await fairness.revealDue();
        const eth = await periods('ETHUSDT', order.accepted, order.accepted + 2000);
        expect(eth.filter((p) => p.periodEnd <= order.accepted + 1000).length).toBeGreaterThan(0);
        expect(eth.every((p) => p.periodEnd > order.accepted || p.secret !== null)).toBe(true);
        expect(eth.some((p) => p.periodStart > order.accepted && p.secret !== null)).toBe(true);
      },
      { timeout: 30_000, interval: 200 },
    );
    const btc = await periods('BTCUSDT', order.accepted - 10_000);
    // Periods that ended well before the order are revealed; none it could depend on is.
    expect(btc.some((p) => p.periodEnd + 1000 <= order.accepted && p.secret !== null)).toBe(true);
    for (const p of btc)
      if (p.periodEnd + 1000 > order.accepted) expect(p.secret, `${p.periodStart}`).toBeNull();
    // Settled: now they are revealed, with the secret that was committed to.
    await t.db.query(
      "UPDATE orders SET status = 'void', payout = amount, settled_at = now() WHERE id = $1",
      [order.id],
    );
    await fairness.revealDue();
    const after = await periods('BTCUSDT', order.accepted - 1000, order.accepted + 1000);
    expect(after.length).toBeGreaterThan(0);
    for (const p of after) {
      expect(p.secret).not.toBeNull();
      expect(commitmentOf(Buffer.from(p.secret!, 'hex'))).toBe(p.commitment);
    }
  });

  it('verify:tape recomputes every tick across a restart, and names the altered tick and the broken commitment', async () => {
    const now = clockFrom(WEDNESDAY_AFTERNOON);
    const from = now();
    const first = await start({ now, backfillHours: 0.02 });
    const backfilled = (await tape('BTCUSDT')).at(-1)!.seq;
    await runUntil('BTCUSDT', 30, backfilled);
    await stop(first);
    const before = (await tape('BTCUSDT')).at(-1)!.seq;
    // Restarted: the model resumes from its exact state, replayed with the period's secret.
    const restartedAt = now();
    await start({ now });
    await runUntil('BTCUSDT', 50, before);
    await stop(feeds[0]!);
    const to = now();
    // Every period of this past Wednesday has ended and no order is open: all are revealed.
    await createFairnessService({
      db: t.db,
      oldestOpenOrders: () => Promise.resolve(new Map()),
      spec: () => null,
      marginMs: 0,
    }).revealDue();

    const source = httpTapeSource(url);
    const ok = await verifyTape(source, 'BTCUSDT', from - 120_000, to);
    expect(ok.periods.flatMap((p) => p.problems)).toEqual([]);
    expect(ok.failed).toBe(0);
    expect(ok.uncovered).toBe(0);
    expect(ok.history).toBeGreaterThan(0);
    const verified = ok.periods.filter((p) => p.status === 'ok');
    // Both runs' ticks are recomputed, across the restart, but for the last period with ticks:
    // no tick after it is on the tape yet, so its secret stays sealed.
    expect(verified.reduce((n, p) => n + p.ticks, 0)).toBeGreaterThanOrEqual(30);
    // A period holding ticks made after the restart is recomputed too.
    expect(verified.some((p) => p.periodEnd > restartedAt)).toBe(true);
    const sealed = ok.periods.filter((p) => p.status === 'sealed');
    expect(sealed.length).toBeGreaterThan(0);
    expect(Math.min(...sealed.map((p) => p.periodStart))).toBeGreaterThan(
      Math.max(...verified.map((p) => p.periodStart)),
    );

    // One stored price changed: exactly that tick is reported.
    const victim = (await tape('BTCUSDT')).find((r) => r.seq === before + 5)!;
    await t.db.query(
      "UPDATE ticks SET price = price + 7 WHERE product_id = 'BTCUSDT' AND seq = $1",
      [victim.seq],
    );
    const altered = await verifyTape(
      httpTapeSource(await freshApi()),
      'BTCUSDT',
      from - 120_000,
      to,
    );
    expect(altered.failed).toBe(1);
    expect(altered.periods.flatMap((p) => p.problems)).toEqual([
      `tick seq ${victim.seq}: price ${((victim.price + 7) / 100).toFixed(2)} on the tape, ${(victim.price / 100).toFixed(2)} recomputed`,
    ]);
    await t.db.query(
      "UPDATE ticks SET price = price - 7 WHERE product_id = 'BTCUSDT' AND seq = $1",
      [victim.seq],
    );

    // A revealed secret swapped behind the trigger's back: that period, and only it, fails.
    const target = verified[1]!;
    await t.db.exec('ALTER TABLE fairness_periods DISABLE TRIGGER fairness_periods_immutable');
    await t.db.query(
      `UPDATE fairness_periods SET secret = $3 WHERE product_id = 'BTCUSDT' AND period_start = $1 AND period_end = $2`,
      [target.periodStart, target.periodEnd, 'ab'.repeat(32)],
    );
    await t.db.exec('ALTER TABLE fairness_periods ENABLE TRIGGER fairness_periods_immutable');
    const afterSwap = await freshApi();
    const swapped = await verifyTape(httpTapeSource(afterSwap), 'BTCUSDT', from - 120_000, to);
    const failed = swapped.periods.filter((p) => p.status === 'failed');
    expect(failed.map((p) => p.periodStart)).toEqual([target.periodStart]);
    expect(failed[0]!.problems[0]).toMatch(/does not match the commitment/);

    // The command line: a line per period, the failure named, exit code 1.
    // Run asynchronously: this process serves the API the command line reads.
    const cli = await runScript([
      'scripts/verify-tape.ts',
      '--product',
      'BTCUSDT',
      '--from',
      String(from - 120_000),
      '--to',
      new Date(to).toISOString(),
      '--url',
      afterSwap,
    ]);
    expect(cli.stdout, cli.stderr).toContain('FAILED');
    expect(cli.stdout).toContain('does not match the commitment');
    expect(cli.stdout).toMatch(/periods verified \(\d+ ticks\), 1 failed/);
    expect(cli.status).toBe(1);
  });

  it('refuses to change a commitment, a recorded start or a revealed period', async () => {
    await start({});
    await runUntil('BTCUSDT', 5);
    const [p] = (
      await t.db.query<{ period_start: number }>(
        "SELECT period_start FROM fairness_periods WHERE product_id = 'BTCUSDT' AND start_seq IS NOT NULL LIMIT 1",
      )
    ).rows;
    const where = `WHERE product_id = 'BTCUSDT' AND period_start = ${p!.period_start}`;
    for (const sql of [
      `UPDATE fairness_periods SET secret = '${'cd'.repeat(32)}' ${where}`,
      `UPDATE fairness_periods SET commitment = '${'cd'.repeat(32)}' ${where}`,
      `UPDATE fairness_periods SET start_seq = start_seq + 1 ${where}`,
      `DELETE FROM fairness_periods ${where}`,
    ])
      await expect(t.db.query(sql), sql).rejects.toThrow(/fairness_periods/);
  });
});
