import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { Tick } from '@shared/market/model';
import type { Order } from '@shared/orders/model';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/socket';
import { eventually } from '@tests/support/wait';
import { checkLedger } from '@server/modules/ledger/ledger';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { expireOrder, fund } from '@tests/support/orders';
import { bulkOrders, bulkUsers, expireAllAt, settlementFacts } from '@tests/support/bulk-orders';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort, startPrivateRedis, type PrivateRedis } from '@tests/support/redis-server';
import { oneAddressSocketEnv } from '@tests/support/socket-limits';
import { startBalancer } from '@tests/support/tcp-balancer';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/** The scaled topology as processes: sim, 2 api, 3 gateways on PostgreSQL and a private Redis. */
describe('scaled topology (sim, 2 api, 3 gateways)', { timeout: 120_000 }, () => {
  let t: TestDb;
  let redis: PrivateRedis;
  let env: Record<string, string>;
  const procs = new Map<string, { proc: RunningProcess; port: number; role: string }>();
  const clients: Client[] = [];

  const start = async (
    name: string,
    role: 'sim' | 'api' | 'gateway',
    extra: Record<string, string> = {},
  ) => {
    const port = procs.get(name)?.port ?? (await freePort());
    const proc = startEntry(`server/src/main/${role}.ts`, { ...env, PORT: String(port), ...extra });
    procs.set(name, { proc, port, role });
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, 200, 60_000);
    return port;
  };
  const url = (name: string) => `http://127.0.0.1:${procs.get(name)!.port}`;
  const client = (target: string, token?: string): Client => {
    const c: Client = connect(target, {
      transports: ['websocket'],
      auth: token ? { token } : {},
      reconnectionDelay: 100,
      reconnectionDelayMax: 500,
    });
    clients.push(c);
    return c;
  };
  const subscribe = (c: Client, channels: string[]) =>
    new Promise((r) => c.emit('subscribe', channels, r));

  beforeAll(async () => {
    [t, redis] = await Promise.all([openTestDb('postgres'), startPrivateRedis()]);
    env = {
      DATABASE_URL: urlWithSchema(t.url!, t.schema!),
      REDIS_URL: redis.url,
      REDIS_NAMESPACE: `scale-${randomBytes(3).toString('hex')}`,
      SIM_BACKFILL_HOURS: '0',
      SIM_TICKS_PER_SECOND: '4',
      OPERATOR_TOKEN: 'cluster-operator-token-0123',
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_MS: '5000',
      // The test's clients, standing in for many users, all connect from 127.0.0.1.
      ...oneAddressSocketEnv,
    };
    await start('sim', 'sim');
    await Promise.all([start('api1', 'api'), start('api2', 'api')]);
    await Promise.all(
      ['gw1', 'gw2', 'gw3'].map((g) => start(g, 'gateway', { API_URL: url('api1') })),
    );
  }, 180_000);

  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await Promise.all([...procs.values()].map((p) => p.proc.stop('SIGTERM')));
    await redis.kill();
    await t.drop();
  }, 60_000);

  it('clients on different gateways receive identical tick sequences', async () => {
    const seen = new Map<string, Tick[]>();
    for (const g of ['gw1', 'gw2', 'gw3']) {
      const c = client(url(g));
      const list: Tick[] = [];
      seen.set(g, list);
      c.on('tick', (tk) => list.push(tk));
      await subscribe(c, ['ticks:ETHUSDT']);
    }
    await eventually(
      () => [...seen.values()].every((l) => l.length >= 12),
      15_000,
      'ticks on every gateway',
    );
    const [a, b, c] = [...seen.values()].map((l) => new Map(l.map((tk) => [tk.seq, tk.price])));
    const common = [...a!.keys()].filter((s) => b!.has(s) && c!.has(s));
    expect(common.length).toBeGreaterThanOrEqual(8);
    for (const s of common) expect([b!.get(s), c!.get(s)]).toEqual([a!.get(s), a!.get(s)]);
    for (const l of seen.values()) {
      const seqs = l.map((tk) => tk.seq);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    }
  });

  const post = (base: string, path: string, body: unknown, token?: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  const pw = 'cluster pass 1';
  const login = async (base: string, account: string) =>
    (await (await post(base, '/api/auth/login', { account, password: pw })).json()) as {
      token: string;
      user: { id: string };
    };
  /** Registers through api1 and logs in through api2; funded with 1 000.00. */
  const newUser = async () => {
    const account = `scale_${randomBytes(3).toString('hex')}`;
    await t.db.query("INSERT INTO invite_codes (code) VALUES ('CLUSTER') ON CONFLICT DO NOTHING");
    const reg = await post(url('api1'), '/api/auth/register', {
      account,
      phone: '+15550100',
      inviteCode: 'CLUSTER',
      password: pw,
      passwordConfirm: pw,
      tradePassword: '123456',
      tradePasswordConfirm: '123456',
      acceptTerms: DEFAULT_TERMS_VERSION,
    });
    expect(reg.status).toBe(201);
    const { token, user } = await login(url('api2'), account);
    await fund(t.db, user.id, 100_000);
    return { account, token, user };
  };
  /** Places an order through api2, retrying while the api has no fresh quote yet. */
  const placeOrder = async (token: string) => {
    let placed: Response | null = null;
    for (let i = 0; i < 20 && placed?.status !== 201; i++) {
      placed = await post(
        url('api2'),
        '/api/orders',
        { productId: 'BTCUSDT', direction: 'up', amount: 1000, duration: 30 },
        token,
      );
      if (placed.status !== 201) await new Promise((r) => setTimeout(r, 250));
    }
    expect(placed!.status).toBe(201);
    return (await placed!.json()) as Order;
  };
  const hello = (socket: Client) =>
    new Promise<{ userId: string | null }>((r) => socket.once('hello', r));

  it("a user's settlement event reaches them on whichever gateway they are", async () => {
    const { token, user } = await newUser();
    const socket = client(url('gw3'), token);
    const events: Order[] = [];
    socket.on('order', (o) => events.push(o));
    expect((await hello(socket)).userId).toBe(user.id);
    // Placed through api2; it settles on whichever api's worker claims it.
    const order = await placeOrder(token);
    await eventually(() => events.some((o) => o.id === order.id), 5000, 'the open order event');
    // The entry (the next tick after acceptance, from the live tape) comes in its own event.
    await eventually(
      () => events.some((o) => o.id === order.id && o.status === 'open' && o.entry !== null),
      5000,
      'the entry event',
    );
    await expireOrder(t.db, order.id, 0);
    await eventually(
      () => events.some((o) => o.id === order.id && o.status !== 'open'),
      10_000,
      'the settlement event on gateway 3',
    );
  });

  it("a password change through api1 ends the other session's socket on gateway 2; this session's socket on gateway 3 keeps its events", async () => {
    const { account, token, user } = await newUser();
    const other = (await login(url('api1'), account)).token;
    const ended = client(url('gw2'), other);
    const stays = client(url('gw3'), token);
    const heard = { ended: [] as string[], stays: [] as string[] };
    for (const [name, socket] of [
      ['ended', ended],
      ['stays', stays],
    ] as const) {
      socket.on('sessionEnded', (e) => heard[name].push(`sessionEnded ${e.reason}`));
      socket.on('order', (o) => heard[name].push(`order ${o.id}`));
      socket.on('disconnect', (reason) => heard[name].push(`disconnect ${reason}`));
    }
    expect((await Promise.all([hello(ended), hello(stays)])).map((h) => h.userId)).toEqual([
      user.id,
      user.id,
    ]);

    const changed = await post(
      url('api1'),
      '/api/me/password',
      { oldPassword: pw, newPassword: 'cluster pass 2', confirmPassword: 'cluster pass 2' },
      token,
    );
    expect(changed.status).toBe(204);
    await eventually(() => heard.ended.length >= 2, 10_000, 'the end on gateway 2');
    expect(heard.ended).toEqual([
      'sessionEnded password_changed',
      'disconnect io server disconnect',
    ]);

    // A user event after the change reaches gateway 3 (waited for there), never gateway 2.
    const order = await placeOrder(token);
    await eventually(() => heard.stays.includes(`order ${order.id}`), 10_000, 'the order event');
    expect(heard.stays).toEqual([`order ${order.id}`]);
    expect(heard.ended).toEqual([
      'sessionEnded password_changed',
      'disconnect io server disconnect',
    ]);

    const again = client(url('gw2'), other);
    const refusal = await new Promise<Error>((r) => again.once('connect_error', r));
    expect(refusal.message).toBe('UNAUTHENTICATED');
    again.disconnect();
  });

  it('"sign out all others" through api2 ends the other sessions\' sockets on gateways 1 and 2 at once, and their next request is 401', async () => {
    const { account, token, user } = await newUser();
    const others = [
      (await login(url('api1'), account)).token,
      (await login(url('api2'), account)).token,
    ];
    const sockets = [client(url('gw1'), others[0]), client(url('gw2'), others[1])];
    const stays = client(url('gw3'), token);
    const endedAt: number[] = [];
    for (const socket of sockets) socket.on('disconnect', () => endedAt.push(Date.now()));
    const hellos = await Promise.all([...sockets, stays].map(hello));
    expect(hellos.map((h) => h.userId)).toEqual([user.id, user.id, user.id]);

    const asked = Date.now();
    const res = await post(url('api2'), '/api/security/sessions/end-others', {}, token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ended: 2 });
    await eventually(() => endedAt.length === 2, 10_000, 'both sockets ended');
    // The figure the security page promises ("at once"): printed, judged by the reader, since a
    // loaded CI machine may stretch it (typically tens of milliseconds).
    console.log(
      `end-others: sockets on gw1 and gw2 closed ${Math.max(...endedAt) - asked} ms after the request`,
    );
    for (const other of others) {
      const me = await fetch(`${url('api1')}/api/me`, {
        headers: { authorization: `Bearer ${other}` },
      });
      expect(me.status).toBe(401);
    }
    // This session and its socket stay.
    const mine = await fetch(`${url('api1')}/api/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(mine.status).toBe(200);
    expect(stays.connected).toBe(true);
  });

  it('a SIGKILLed gateway: its clients reconnect through the balancer and data resumes', async () => {
    const lb = await startBalancer(['gw1', 'gw2', 'gw3'].map((g) => procs.get(g)!.port));
    try {
      const c = client(`http://127.0.0.1:${lb.port}`);
      const ticks: Tick[] = [];
      c.on('tick', (tk) => ticks.push(tk));
      let connects = 0;
      c.on('connect', () => {
        connects++;
        void subscribe(c, ['ticks:BTCUSDT']);
      });
      await eventually(() => ticks.length >= 3, 10_000, 'first ticks');
      const victim = 'gw1';
      await procs.get(victim)!.proc.stop('SIGKILL');
      const before = ticks.length;
      await eventually(() => ticks.length >= before + 5, 15_000, 'ticks after the kill');
      expect(connects).toBeGreaterThanOrEqual(1);
      // gw1 comes back for the next tests.
      await start(victim, 'gateway', { API_URL: url('api1') });
    } finally {
      await lb.close();
    }
  });

  it('a SIGTERMed gateway under load: its clients see only a reconnect', async () => {
    const target = url('gw2');
    const errors: string[] = [];
    const perClient = Array.from({ length: 20 }, () => {
      const c = client(target);
      const seqs: number[] = [];
      c.on('tick', (tk) => seqs.push(tk.seq));
      c.on('connect', () => void subscribe(c, ['ticks:BTCUSDT']));
      c.io.on('error', (e) => errors.push(e.message));
      return { c, seqs };
    });
    await eventually(
      () => perClient.every((p) => p.seqs.length >= 2),
      10_000,
      'all clients receiving',
    );
    const code = await procs.get('gw2')!.proc.stop('SIGTERM');
    expect(code).toBe(0);
    await start('gw2', 'gateway', { API_URL: url('api1') });
    const counts = perClient.map((p) => p.seqs.length);
    await eventually(
      () => perClient.every((p, i) => p.seqs.length > counts[i]! + 2),
      20_000,
      'ticks after the restart',
    );
    expect(perClient.every((p) => p.c.connected)).toBe(true);
  });

  it('a Redis restart: ticks resume within 5 s and no process exits', async () => {
    const c = client(url('gw3'));
    const ticks: Tick[] = [];
    c.on('tick', (tk) => ticks.push(tk));
    await subscribe(c, ['ticks:SOLUSDT']);
    await eventually(() => ticks.length >= 2, 10_000, 'ticks before');
    await redis.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    await redis.start();
    const restartedAt = Date.now();
    const before = ticks.length;
    await eventually(() => ticks.length > before + 1, 5_000, 'ticks within 5 s of the restart');
    console.log(`ticks resumed ${Date.now() - restartedAt} ms after Redis came back`);
    for (const [name, p] of procs) {
      if (p.proc.child.exitCode !== null) console.log(`${name} exited:\n${p.proc.output()}`);
      expect({ name, exited: p.proc.child.exitCode }).toEqual({ name, exited: null });
    }
  });

  it('a SIGKILLed api during settlement: nothing lost or doubled', async () => {
    const users = await bulkUsers(t.db, 20, 1_000_000);
    await bulkOrders(t.db, users, 400);
    await expireAllAt(t.db, 1);
    await new Promise((r) => setTimeout(r, 1100));
    await procs.get('api1')!.proc.stop('SIGKILL');
    const deadline = Date.now() + 20_000;
    let facts = await settlementFacts(t.db);
    while (facts.open > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      facts = await settlementFacts(t.db);
    }
    expect(facts.open).toBe(0);
    expect(facts.halfDone).toBe(0);
    expect(facts.wrongEntry).toBe(0);
    expect(facts.heldMismatch).toBe(0);
    expect(facts.settleTransfers).toBe(facts.settled);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });
});
