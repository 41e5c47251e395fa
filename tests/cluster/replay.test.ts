import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { Order } from '@shared/orders/model';
import type { ClientToServerEvents, Hello, ServerToClientEvents, TicksGap } from '@shared/socket';
import { createUserEventCursor } from '@shared/user-events';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { fund } from '@tests/support/orders';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';
import { eventually } from '@tests/support/wait';
import { newTrader, postOrder, untilFresh } from '../load/flood';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * A trader's socket is cut off while its orders settle (sim, api with its settlement worker and a
 * gateway as processes, on PostgreSQL and Redis). When it connects again with the last event id
 * it saw, the gateway replays the user's stream: the client's logic (the app's cursor) hears
 * every settlement it missed exactly once, the hello says the replay is complete, and its ticks
 * re-subscription is answered with every tick it missed (or an exact gap notice).
 */
describe(
  'missed events replayed after a reconnection (PostgreSQL + Redis)',
  { timeout: 240_000 },
  () => {
    let t: TestDb;
    let procs: RunningProcess[] = [];
    let apiUrl = '';
    let gwUrl = '';
    let startGateway: () => RunningProcess;
    const clients: Client[] = [];

    beforeAll(async () => {
      t = await openTestDb('postgres');
      const env = {
        DATABASE_URL: urlWithSchema(t.url!, t.schema!),
        REDIS_URL: process.env.REDIS_URL!,
        REDIS_NAMESPACE: `replay-${randomBytes(3).toString('hex')}`,
        SIM_BACKFILL_HOURS: '0',
        LOG_LEVEL: 'warn',
        SHUTDOWN_TIMEOUT_MS: '5000',
        SOCKET_CONNECT_RATE: 'off',
        SOCKET_MAX_PER_ADDRESS: 'off',
      };
      const [simPort, apiPort, gwPort] = await Promise.all([freePort(), freePort(), freePort()]);
      apiUrl = `http://127.0.0.1:${apiPort}`;
      gwUrl = `http://127.0.0.1:${gwPort}`;
      startGateway = () =>
        startEntry('server/src/main/gateway.ts', { ...env, PORT: String(gwPort), API_URL: apiUrl });
      procs = [
        startEntry('server/src/main/sim.ts', { ...env, PORT: String(simPort) }),
        startEntry('server/src/main/api.ts', { ...env, PORT: String(apiPort) }),
        startGateway(),
      ];
      await Promise.all(
        [simPort, apiPort, gwPort].map((p) =>
          waitForHttp(`http://127.0.0.1:${p}/readyz`, 200, 90_000),
        ),
      );
      await untilFresh(apiUrl, 'BTCUSDT');
    }, 180_000);

    afterAll(async () => {
      for (const c of clients) c.disconnect();
      await Promise.all(procs.map((p) => p.stop('SIGTERM')));
      await t?.drop();
    }, 60_000);

    /** The app's handling of a socket: `since` in the handshake, repeats dropped, ticks resumed. */
    function appSocket(token: string) {
      const cursor = createUserEventCursor();
      const heard = { orders: [] as Order[], raw: 0, hellos: [] as Hello[], readAgain: 0 };
      const ticks: number[] = [];
      const gaps: TicksGap[] = [];
      const c: Client = connect(gwUrl, {
        transports: ['websocket'],
        forceNew: true,
        auth: (cb) => cb({ token, since: cursor.since(token) }),
      });
      clients.push(c);
      c.on('order', (order, meta) => {
        heard.raw++;
        if (cursor.accept(meta?.id)) heard.orders.push(order);
      });
      c.on('hello', (hello) => {
        heard.hellos.push(hello);
        if (cursor.hello(hello)) heard.readAgain++;
        const last = ticks.at(-1);
        const after = last === undefined ? {} : { after: { BTCUSDT: last } };
        c.emit('subscribe', ['ticks:BTCUSDT'], after, () => undefined);
      });
      c.on('tick', (tick) => {
        const last = ticks.at(-1);
        if (last === undefined || tick.seq > last) ticks.push(tick.seq);
      });
      c.on('ticksGap', (gap) => gaps.push(gap));
      return { c, heard, ticks, gaps };
    }

    const place = async (token: string) => {
      const res = await postOrder(apiUrl, token, { amount: 10_000 });
      const body = (await res.json()) as Order;
      expect(res.status, JSON.stringify(body)).toBe(201);
      return body.id;
    };
    const settled = (s: Order['status']) => s !== 'open';

    /** A funded trader whose app socket heard its orders open, and the last tick it holds. */
    const traderWithOrders = async (n: number) => {
      await t.db.query("INSERT INTO invite_codes (code) VALUES ('REPLAY') ON CONFLICT DO NOTHING");
      const token = await newTrader(apiUrl, 'REPLAY');
      const me = (await (
        await fetch(`${apiUrl}/api/me`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { id: string };
      await fund(t.db, me.id, 10_000_000);
      const app = appSocket(token);
      await eventually(() => app.ticks.length > 0, 30_000, 'the first tick');
      const ids: string[] = [];
      for (let i = 0; i < n; i++) ids.push(await place(token));
      await eventually(
        () => ids.every((id) => app.heard.orders.some((o) => o.id === id)),
        30_000,
        'the opened orders',
      );
      return { userId: me.id, app, ids };
    };

    const untilSettled = async (ids: string[]) => {
      const deadline = Date.now() + 90_000;
      for (;;) {
        const { rows } = await t.db.query<{ status: Order['status'] }>(
          'SELECT status FROM orders WHERE id = ANY($1::bigint[])',
          [ids],
        );
        if (rows.length === ids.length && rows.every((r) => settled(r.status))) return;
        if (Date.now() > deadline) throw new Error('the orders did not settle');
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    /** After the reconnection: a complete replay, no read over REST, each settlement once. */
    const expectReplayed = async (
      { userId, app, ids }: Awaited<ReturnType<typeof traderWithOrders>>,
      heardBefore: number,
    ) => {
      expect(app.heard.orders.slice(heardBefore).filter((o) => settled(o.status))).toEqual([]);
      await eventually(() => app.heard.hellos.length === 2, 60_000, 'the second hello');
      expect(app.heard.hellos[1]).toMatchObject({ userId, replay: 'complete' });
      expect(app.heard.readAgain).toBe(0);
      const settlements = () =>
        app.heard.orders.filter((o) => ids.includes(o.id) && settled(o.status)).map((o) => o.id);
      await eventually(() => settlements().length >= ids.length, 30_000, 'the settlements');
      expect(settlements().sort()).toEqual([...ids].sort());
    };

    it('hears every settlement it missed exactly once, and every tick it missed', async () => {
      const trader = await traderWithOrders(3);
      const { app } = trader;
      // Cut off until every order has settled.
      app.c.disconnect();
      const heardBefore = app.heard.orders.length;
      const ticksBefore = app.ticks.at(-1)!;
      await untilSettled(trader.ids);
      app.c.connect();
      await expectReplayed(trader, heardBefore);

      // Ticks: every seq after the last one held, without a gap (the gateway's ring holds minutes
      // of them at the simulator's 2 a second; the socket was away about half a minute).
      await eventually(() => app.ticks.at(-1)! >= ticksBefore + 3, 30_000, 'ticks after it');
      const resumed = app.ticks.filter((s) => s > ticksBefore);
      expect(app.gaps).toEqual([]);
      expect(resumed).toEqual(
        Array.from({ length: resumed.length }, (_, i) => ticksBefore + 1 + i),
      );
    });

    it('replays them from Redis through a restarted gateway, and names the ticks it lacks', async () => {
      const trader = await traderWithOrders(2);
      const { app } = trader;
      await procs[2]!.stop('SIGKILL');
      const heardBefore = app.heard.orders.length;
      const ticksBefore = app.ticks.at(-1)!;
      await untilSettled(trader.ids);
      procs[2] = startGateway(); // the socket reconnects by itself
      await expectReplayed(trader, heardBefore);

      // The new gateway holds only the ticks since it started: the rest is an exact gap (its
      // end unknown, null, when the socket came back before the gateway heard a tick).
      await eventually(() => app.gaps.length > 0, 30_000, 'the ticks gap');
      await eventually(() => app.ticks.at(-1)! > ticksBefore, 30_000, 'ticks after it');
      const resumed = app.ticks.filter((s) => s > ticksBefore);
      const gap = app.gaps[0]!;
      expect(app.gaps).toHaveLength(1);
      expect(gap).toMatchObject({ product: 'BTCUSDT', from: ticksBefore + 1 });
      if (gap.to !== null) expect(gap.to).toBe(resumed[0]! - 1);
      expect(resumed).toEqual(Array.from({ length: resumed.length }, (_, i) => resumed[0]! + i));
    });
  },
);
