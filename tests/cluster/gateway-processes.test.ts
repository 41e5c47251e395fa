import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { Tick } from '@shared/market/model';
import type { Order } from '@shared/orders/model';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/socket';
import { eventually } from '@tests/support/wait';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { fund } from '@tests/support/orders';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort, startPrivateRedis, type PrivateRedis } from '@tests/support/redis-server';
import { oneAddressSocketEnv } from '@tests/support/socket-limits';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Live gateway processes whose parent is `ppid` (Linux /proc). Only the gateway's own workers:
 * tsx may start an esbuild service beside them on a cold transform cache (seen once).
 */
function childrenOf(ppid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces, so read after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (
        Number(fields[1]) === ppid &&
        fields[0] !== 'Z' &&
        fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('gateway.ts')
      )
        out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** GATEWAY_PROCESSES=2: one gateway port, two worker processes, on PostgreSQL and a private Redis. */
describe('a gateway of two processes (GATEWAY_PROCESSES=2)', { timeout: 120_000 }, () => {
  let t: TestDb;
  let redis: PrivateRedis;
  let sim: RunningProcess;
  let api: RunningProcess;
  let gateway: RunningProcess;
  let apiUrl: string;
  let gwUrl: string;
  let gwMetricsPort: number;
  const clients: Client[] = [];
  const opsToken = `ops-${randomBytes(12).toString('hex')}`;

  beforeAll(async () => {
    [t, redis] = await Promise.all([openTestDb('postgres'), startPrivateRedis()]);
    const env = {
      DATABASE_URL: urlWithSchema(t.url!, t.schema!),
      REDIS_URL: redis.url,
      REDIS_NAMESPACE: `gwp-${randomBytes(3).toString('hex')}`,
      SIM_BACKFILL_HOURS: '0',
      SIM_TICKS_PER_SECOND: '4',
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_MS: '5000',
      OPERATOR_TOKEN: opsToken,
      ...oneAddressSocketEnv,
    };
    const [simPort, apiPort, gwPort] = await Promise.all([freePort(), freePort(), freePort()]);
    gwMetricsPort = await freePort();
    sim = startEntry('server/src/main/sim.ts', { ...env, PORT: String(simPort) });
    api = startEntry('server/src/main/api.ts', { ...env, PORT: String(apiPort) });
    apiUrl = `http://127.0.0.1:${apiPort}`;
    await Promise.all([
      waitForHttp(`http://127.0.0.1:${simPort}/readyz`, 200, 60_000),
      waitForHttp(`${apiUrl}/readyz`, 200, 60_000),
    ]);
    gateway = startEntry('server/src/main/gateway.ts', {
      ...env,
      PORT: String(gwPort),
      API_URL: apiUrl,
      GATEWAY_PROCESSES: '2',
      METRICS_PORT: String(gwMetricsPort),
    });
    gwUrl = `http://127.0.0.1:${gwPort}`;
    await waitForHttp(`${gwUrl}/readyz`, 200, 60_000);
  }, 180_000);

  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await Promise.all([gateway, api, sim].map((p) => p?.stop('SIGTERM')));
    await redis?.kill();
    await t?.drop();
  }, 60_000);

  const client = (token?: string): Client => {
    const c: Client = connect(gwUrl, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      auth: token ? { token } : {},
    });
    clients.push(c);
    return c;
  };
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });

  // Connections alternate between the workers (the cluster primary hands them out in turn), so
  // eight sockets opened one after the other are four on each; the kill below checks it.
  const N = 8;
  let user: { token: string; id: string };
  const sockets: { c: Client; ticks: Tick[]; orders: Order[]; closed: string[] }[] = [];

  it('clients on both processes get identical tick sequences and the same user events', async () => {
    const account = `gwp_${randomBytes(3).toString('hex')}`;
    await t.db.query("INSERT INTO invite_codes (code) VALUES ('GWP') ON CONFLICT DO NOTHING");
    const pw = 'cluster pass 1';
    const reg = await post('/api/auth/register', {
      account,
      phone: '+15550100',
      inviteCode: 'GWP',
      password: pw,
      passwordConfirm: pw,
      tradePassword: '123456',
      tradePasswordConfirm: '123456',
      acceptTerms: DEFAULT_TERMS_VERSION,
    });
    expect(reg.status).toBe(201);
    const login = (await (await post('/api/auth/login', { account, password: pw })).json()) as {
      token: string;
      user: { id: string };
    };
    user = { token: login.token, id: login.user.id };
    await fund(t.db, user.id, 100_000);

    for (let i = 0; i < N; i++) {
      const c = client(user.token);
      const s = { c, ticks: [] as Tick[], orders: [] as Order[], closed: [] as string[] };
      c.on('tick', (tk) => s.ticks.push(tk));
      c.on('order', (o) => s.orders.push(o));
      c.on('disconnect', (reason) => s.closed.push(reason));
      const hello = await new Promise<{ userId: string | null }>((r) => c.once('hello', r));
      expect(hello.userId).toBe(user.id);
      await new Promise((r) => c.emit('subscribe', ['ticks:ETHUSDT'], r));
      sockets.push(s);
    }

    await eventually(() => sockets.every((s) => s.ticks.length >= 10), 20_000, 'ticks everywhere');
    const maps = sockets.map((s) => new Map(s.ticks.map((tk) => [tk.seq, tk.price])));
    const common = [...maps[0]!.keys()].filter((seq) => maps.every((m) => m.has(seq)));
    expect(common.length).toBeGreaterThanOrEqual(6);
    for (const seq of common) expect(new Set(maps.map((m) => m.get(seq))).size).toBe(1); // one price per seq everywhere
    for (const s of sockets) {
      const seqs = s.ticks.map((tk) => tk.seq);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    }

    // A user event from the api (through Redis) reaches the user's sockets on both processes.
    let placed: Response | null = null;
    for (let i = 0; i < 20 && placed?.status !== 201; i++) {
      placed = await post(
        '/api/orders',
        { productId: 'BTCUSDT', direction: 'up', amount: 1000, duration: 30 },
        user.token,
      );
      if (placed.status !== 201) await new Promise((r) => setTimeout(r, 250));
    }
    expect(placed!.status).toBe(201);
    const order = (await placed!.json()) as Order;
    await eventually(
      () => sockets.every((s) => s.orders.some((o) => o.id === order.id)),
      10_000,
      'the order event on every socket',
    );
  });

  it("the api's dashboard shows both gateway processes, their sockets and ticks, and its settlement", async () => {
    type Live = {
      gateways: { id: string; sockets: number; ticksPerSecond: number }[];
      sockets: number;
      ticksPerSecond: number | null;
      settlement: { settledLastMinute: number } | null;
    };
    const live = async () => {
      const res = await fetch(`${apiUrl}/api/ops/dashboard`, {
        headers: { authorization: `Bearer ${opsToken}` },
      });
      return ((await res.json()) as { live: Live }).live;
    };
    // Each process reports every 2 s over Redis; the newest reports count.
    const figures = await vi.waitFor(
      async () => {
        const l = await live();
        expect([l.gateways.length, l.sockets]).toEqual([2, N]);
        expect(l.gateways.every((g) => g.ticksPerSecond > 0)).toBe(true);
        return l;
      },
      { timeout: 20_000, interval: 250 },
    );
    // One row per worker process (host:pid), the workers of the gateway's primary.
    const pids = figures.gateways.map((g) => Number(g.id.split(':').at(-1)));
    expect(pids.sort()).toEqual(childrenOf(gateway.child.pid!).sort());
    expect(figures.gateways.map((g) => g.sockets)).toEqual([N / 2, N / 2]);
    expect(figures.settlement).not.toBeNull();
  });

  it('the sockets are on both processes; a worker that dies is replaced', async () => {
    const workers = childrenOf(gateway.child.pid!);
    expect(workers).toHaveLength(2);
    process.kill(workers[0]!, 'SIGKILL');
    // Exactly the sockets on the killed process close; the others stay.
    await eventually(() => sockets.some((s) => s.closed.length > 0), 10_000, 'a close');
    await new Promise((r) => setTimeout(r, 500)); // the rest of that process's closes arrive together
    const closed = sockets.filter((s) => s.closed.length > 0).length;
    expect(closed).toBe(N / 2);
    // The primary starts a replacement; ready again once both workers answer.
    await eventually(
      () => {
        const now = childrenOf(gateway.child.pid!);
        return now.length === 2 && !now.includes(workers[0]!);
      },
      30_000,
      'a replacement worker',
    );
    await waitForHttp(`${gwUrl}/readyz`, 200, 30_000);
    // The private listener, shared by both workers: either answers for both, each worker's
    // series apart under its slot (`process`), so no sum hides the one that died.
    const byProcess = (text: string, name: string) =>
      Object.fromEntries(
        [...text.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, 'gm'))].map((m) => [
          /process="(\d+)"/.exec(m[1]!)?.[1] ?? 'none',
          Number(m[2]),
        ]),
      );
    const metrics = await vi.waitFor(
      async () => {
        const text = await (await fetch(`http://127.0.0.1:${gwMetricsPort}/metrics`)).text();
        // The primary's own: both slots held by a listening worker again, one restart.
        expect(byProcess(text, 'gateway_process_up')).toEqual({ '1': 1, '2': 1 });
        return text;
      },
      { timeout: 20_000, interval: 250 },
    );
    const restarts = byProcess(metrics, 'gateway_process_restarts_total');
    expect(Object.values(restarts).sort()).toEqual([0, 1]);
    const died = Object.keys(restarts).find((slot) => restarts[slot] === 1)!;
    const survived = died === '1' ? '2' : '1';
    // The replacement in the dead worker's slot has none of the closed sockets; the survivor
    // keeps its own.
    expect(byProcess(metrics, 'gateway_connected_sockets')).toEqual({
      [died]: 0,
      [survived]: N / 2,
    });
    expect(byProcess(metrics, 'gateway_api_reachable')).toEqual({ '1': 1, '2': 1 });
  });

  it('SIGTERM to the primary drains both processes, then it exits 0', async () => {
    const workers = childrenOf(gateway.child.pid!);
    expect(workers).toHaveLength(2);
    const more = Array.from({ length: 4 }, () => client());
    await Promise.all(more.map((c) => new Promise((r) => c.once('hello', r))));
    const reasons: string[] = [];
    for (const c of [...more, ...sockets.filter((s) => !s.closed.length).map((s) => s.c)])
      c.on('disconnect', (reason) => reasons.push(reason));
    const expected = more.length + N / 2;
    expect(await gateway.stop('SIGTERM')).toBe(0);
    await eventually(() => reasons.length === expected, 10_000, 'every socket closed');
    expect(reasons.every((r) => r === 'transport close')).toBe(true);
    expect(workers.filter(alive)).toEqual([]);
  });
});
