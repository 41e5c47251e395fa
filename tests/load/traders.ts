import { randomBytes, randomUUID } from 'node:crypto';
import type { Histogram } from 'hdr-histogram-js';
import type { Counters } from './results';
import type { Traders } from './scenario';
import { LightClient, nowMs, type LightClientSink } from './wire';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';

/**
 * Logged-in traders: each registers (or logs in), is optionally funded through the operator API,
 * holds a signed-in socket and places an order every `orderEvery` seconds, timing the POST →
 * the order's first `order` event and → the next `balance` event. At the end each trader's
 * balance is compared with its ledger (the newest fund record's running balance).
 */

interface Trader {
  account: string;
  token: string;
  headers: Record<string, string>;
  socket?: LightClient;
  hello?: () => void;
  /** Its socket failed or closed. */
  gone?: () => void;
  /** Said hello: counted in the run's concurrency until its socket closes. */
  greeted?: boolean;
  /** Orders placed and not yet seen in an `order` event: id → sent at. */
  pending: Map<string, number>;
  /** `order` events that beat the POST's answer: id → received at. */
  early: Map<string, number>;
  balanceSince: number | null;
  timer?: NodeJS.Timeout;
}

export interface TraderRun {
  /**
   * An arriving trader (the open model), number `n` of the run's arrivals: signs in, opens its
   * socket, trades for `stayMs` from its `hello` (to the end without it) and leaves. `done` is
   * called once it has left or could not start (its place under the phase's cap is free again).
   */
  arrive(n: number, stayMs: number | undefined, done: () => void): void;
  stop(): Promise<void>;
  checkBalances(): Promise<void>;
  close(): void;
}

interface Deps {
  api: string;
  gateways: string[];
  operatorToken?: string;
  connectTimeoutMs: number;
  /** Offset of this process's traders in the whole run (account names stay unique). */
  first: number;
  counters: Counters;
  orderErrors: Record<string, number>;
  hist: { order: Histogram; balance: Histogram };
  measuring: () => boolean;
  log: (line: string) => void;
  /** A trader's socket said hello (+1) or closed after it (-1): the run's concurrency. */
  live: (delta: number) => void;
}

const errorCode = async (res: Response) => {
  try {
    const body = (await res.json()) as { error?: { code?: string } };
    return body.error?.code ?? `HTTP ${res.status}`;
  } catch {
    return `HTTP ${res.status}`;
  }
};

async function call(base: string, path: string, init: RequestInit & { json?: unknown } = {}) {
  const { json, ...rest } = init;
  return fetch(`${base}${path}`, {
    ...rest,
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    headers: {
      ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(rest.headers as Record<string, string>),
    },
    signal: AbortSignal.timeout(15_000),
  });
}

async function must(res: Promise<Response>, what: string): Promise<Response> {
  let r: Response;
  try {
    r = await res;
  } catch (err) {
    throw new Error(`${what}: ${(err as Error).message}`);
  }
  if (!r.ok) throw new Error(`${what}: ${await errorCode(r)}`);
  return r;
}

/** A 1×1 PNG: the deposit form needs a screenshot. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

async function inParallel<T>(items: T[], width: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/**
 * Signs the fixed population in (and funds it), opens its sockets and starts its orders; arrivals
 * come later through `arrive`, each on its own. `cfg.count` is this process's share (may be 0).
 */
export async function startTraders(cfg: Traders, d: Deps): Promise<TraderRun> {
  const ops = { authorization: `Bearer ${d.operatorToken ?? ''}` };
  let invite = '';
  if (cfg.accounts === 'register' || cfg.fund) {
    if (!d.operatorToken)
      throw new Error(
        'traders: register and fund need the operator token (OPERATOR_TOKEN in the environment)',
      );
  }
  if (cfg.accounts === 'register') {
    const res = await must(
      call(d.api, '/api/ops/invites', { method: 'POST', headers: ops, json: {} }),
      'invite',
    );
    invite = ((await res.json()) as { code: string }).code;
  }
  const run = randomBytes(2).toString('hex');
  /** Trader `n` of the whole run (arrivals are numbered after the fixed population). */
  const newTrader = (n: number): Trader => {
    const ip = `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
    d.counters.traders++;
    return {
      account: cfg.accounts === 'register' ? `${cfg.prefix}${run}x${n}` : `${cfg.prefix}${n}`,
      token: '',
      headers: cfg.forwardedFor ? { 'x-forwarded-for': ip } : {},
      pending: new Map(),
      early: new Map(),
      balanceSince: null,
    };
  };
  const traders = Array.from({ length: cfg.count }, (_, i) => newTrader(d.first + i));

  const signIn = async (t: Trader) => {
    const h = t.headers;
    if (cfg.accounts === 'register') {
      const p = cfg.password;
      await must(
        call(d.api, '/api/auth/register', {
          method: 'POST',
          headers: h,
          json: {
            account: t.account,
            phone: '+15550100',
            inviteCode: invite,
            password: p,
            passwordConfirm: p,
            tradePassword: '123456',
            tradePasswordConfirm: '123456',
            acceptTerms: DEFAULT_TERMS_VERSION,
          },
        }),
        `register ${t.account}`,
      );
    }
    const login = await must(
      call(d.api, '/api/auth/login', {
        method: 'POST',
        headers: h,
        json: { account: t.account, password: cfg.password },
      }),
      `login ${t.account}`,
    );
    t.token = ((await login.json()) as { token: string }).token;
    t.headers = { ...h, authorization: `Bearer ${t.token}` };
    if (cfg.fund) {
      const form = new FormData();
      for (const [k, v] of Object.entries({
        channel: 'bank',
        amount: String(cfg.fund),
        payerBank: 'Load Bank',
        payerCard: '6222020012345678',
        payerName: 'Load Test',
      }))
        form.append(k, v);
      form.append('screenshot', new Blob([PNG], { type: 'image/png' }), 'shot.png');
      const dep = await must(
        call(d.api, '/api/deposits', { method: 'POST', headers: t.headers, body: form }),
        `deposit ${t.account}`,
      );
      const { id } = (await dep.json()) as { id: string };
      await must(
        call(d.api, `/api/ops/deposits/${id}/approve`, { method: 'POST', headers: ops }),
        `approve ${id}`,
      );
    }
  };
  await inParallel(traders, 4, signIn);

  const sink: LightClientSink = {
    connected() {},
    subscribed() {},
    tick() {},
    market() {},
    failed(c, reason) {
      d.orderErrors[`socket ${reason}`] = (d.orderErrors[`socket ${reason}`] ?? 0) + 1;
      byClient.get(c)?.gone?.();
    },
    closed(c) {
      const t = byClient.get(c);
      if (t?.greeted) d.live(-1);
      t?.gone?.();
    },
    event(c, name, args, at) {
      const t = byClient.get(c);
      if (!t) return;
      if (name === 'hello') t.hello?.();
      else if (name === 'order') {
        const id = (args[0] as { id: string }).id;
        const sent = t.pending.get(id);
        if (sent === undefined) {
          if (!t.early.has(id)) t.early.set(id, at);
        } else {
          t.pending.delete(id);
          if (d.measuring()) d.hist.order.recordValue(Math.round((at - sent) * 1000));
        }
      } else if (name === 'balance' && t.balanceSince !== null) {
        if (d.measuring()) d.hist.balance.recordValue(Math.round((at - t.balanceSince) * 1000));
        t.balanceSince = null;
      }
    },
  };
  const byClient = new Map<LightClient, Trader>();
  /** Opens the trader's signed-in socket; resolves whether it said hello in time. */
  const openSocket = (t: Trader, i: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), d.connectTimeoutMs + 5000);
      t.hello = () => {
        clearTimeout(timer);
        t.greeted = true;
        d.counters.tradersReady++;
        d.live(1);
        resolve(true);
      };
      t.gone = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const url = d.gateways[i % d.gateways.length]!;
      t.socket = new LightClient(
        {
          url,
          channels: cfg.channels,
          auth: { token: t.token },
          connectTimeoutMs: d.connectTimeoutMs,
        },
        sink,
      );
      byClient.set(t.socket, t);
    });
  await Promise.all(traders.map((t, i) => openSocket(t, i)));

  const place = async (t: Trader) => {
    const sent = nowMs();
    if (t.balanceSince === null) t.balanceSince = sent;
    d.counters.orders++;
    try {
      const res = await call(d.api, '/api/orders', {
        method: 'POST',
        headers: { ...t.headers, 'idempotency-key': randomUUID() },
        json: cfg.order,
      });
      if (res.status !== 201) {
        const code = await errorCode(res);
        d.counters.ordersFailed++;
        d.orderErrors[code] = (d.orderErrors[code] ?? 0) + 1;
        return;
      }
      d.counters.ordersOk++;
      const { id } = (await res.json()) as { id: string };
      const early = t.early.get(id);
      if (early !== undefined) {
        t.early.delete(id);
        if (d.measuring()) d.hist.order.recordValue(Math.round((early - sent) * 1000));
      } else t.pending.set(id, sent);
    } catch (err) {
      d.counters.ordersFailed++;
      const why = (err as Error).name === 'TimeoutError' ? 'timeout' : (err as Error).message;
      d.orderErrors[why] = (d.orderErrors[why] ?? 0) + 1;
    }
  };
  const everyMs = cfg.orderEvery * 1000;
  /** Orders whose POST has not answered yet: stopping waits for them, then for their events. */
  const inFlight = new Set<Promise<void>>();
  const startOrders = (t: Trader) => {
    t.timer = setTimeout(function again() {
      t.timer = setTimeout(again, everyMs);
      const placing = place(t).finally(() => inFlight.delete(placing));
      inFlight.add(placing);
    }, Math.random() * everyMs);
  };
  /** Waits (at most 5 s) for the `order` events of the orders placed; counts those never seen. */
  const settle = async (ts: Trader[]) => {
    const waitUntil = Date.now() + 5000;
    while (ts.some((t) => t.pending.size) && Date.now() < waitUntil)
      await new Promise((r) => setTimeout(r, 100));
    for (const t of ts) {
      d.counters.orderEventsMissing += t.pending.size;
      t.pending.clear();
    }
  };
  let stopped = false;
  for (const t of traders) startOrders(t);

  return {
    arrive(n, stayMs, done) {
      const t = newTrader(n);
      traders.push(t);
      const start = async () => {
        try {
          await signIn(t);
        } catch (err) {
          const why = `sign-in ${(err as Error).message.replace(t.account, '<trader>')}`;
          d.orderErrors[why] = (d.orderErrors[why] ?? 0) + 1;
          return;
        }
        if (stopped || !(await openSocket(t, n))) return;
        if (stopped) return;
        startOrders(t);
        if (stayMs === undefined) return; // stays to the end: stop() and close() see to it
        await new Promise<void>((resolve) => {
          const leave = setTimeout(resolve, stayMs);
          t.gone = () => {
            clearTimeout(leave);
            resolve();
          };
        });
        clearTimeout(t.timer);
        await Promise.all(inFlight); // its last order, if still being placed (others' too: brief)
        await settle([t]);
        t.socket?.close();
      };
      void start().finally(done);
    },
    async stop() {
      stopped = true;
      for (const t of traders) clearTimeout(t.timer);
      // An order still being placed is counted placed when it answers: its event is awaited too.
      await Promise.all(inFlight);
      await settle(traders);
    },
    async checkBalances() {
      // Traders that never signed in have nothing to compare.
      await inParallel(
        traders.filter((t) => t.token),
        4,
        async (t) => {
          d.counters.balanceChecked++;
          for (let attempt = 0; attempt < 10; attempt++) {
            const get = async (path: string): Promise<unknown> =>
              (await must(call(d.api, path, { headers: t.headers }), path)).json();
            const a = (await get('/api/account/summary')) as { available: number };
            const page = (await get('/api/wallet/ledger?limit=1')) as {
              items: { balanceAfter: number }[];
            };
            const b = (await get('/api/account/summary')) as { available: number };
            // Two equal summaries around the ledger read: nothing settled in between.
            if (a.available === b.available && (page.items[0]?.balanceAfter ?? 0) === a.available)
              return;
            await new Promise((r) => setTimeout(r, 500));
          }
          d.counters.balanceMismatches++;
          d.log(`trader ${t.account}: balance and ledger differ`);
        },
      );
    },
    close() {
      for (const t of traders) t.socket?.close();
    },
  };
}
