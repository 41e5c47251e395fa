import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import type { Order } from '@shared/orders/model';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/socket';
import { createUserEventCursor } from '@shared/user-events';
import { newTrader } from '../load/flood';

/**
 * A chaos test's trader, as the app behaves: a signed-in socket that reconnects by itself, and
 * an order every so often, each with an Idempotency-Key that is sent again (same key, same body)
 * after a failure that may not have been one: no answer, 5xx, 429. Its socket reconnects as the
 * app's does: with the last user-event id it saw (`since`), dropping repeated ids, and reading
 * its orders over the api only when the gateway says the replay was not complete. What it
 * records is what the checker holds the system to: the orders it was told were placed, the order
 * events it heard (replayed or read again after a gap), how long its socket was away.
 */
export interface TraderRecord {
  userId: number;
  /** Orders the api acknowledged (201, or the stored answer of a retried key): id → key. */
  acknowledged: Map<string, string>;
  /** Keys given up on without an acknowledgement (their orders may or may not exist). */
  abandoned: string[];
  /** The last status each order event said, by order id. */
  heard: Map<string, Order['status']>;
  /** Each time the socket was away: [from, to] (to is null while it still is). */
  outages: [number, number | null][];
  /** Reconnections whose replay was complete (nothing read again), and those with a gap. */
  replays: { complete: number; gap: number };
  /**
   * Results found by the app's look at overdue orders (5 s past expiry, still open to it): their
   * event never came (e.g. the process that settled them was killed before it published).
   */
  overdueFound: number;
  connected(): boolean;
}

export interface ChaosTrader extends TraderRecord {
  /** Stops placing orders; the socket stays, to hear the last settlements. */
  stop(): Promise<void>;
  close(): void;
}

export async function startTrader(o: {
  apiUrl: string;
  gatewayUrl: string;
  invite: string;
  /** Funds the trader's real balance (the test's own database connection). */
  fund: (userId: number) => Promise<void>;
  everyMs: number;
  stake: number;
}): Promise<ChaosTrader> {
  const token = await newTrader(o.apiUrl, o.invite);
  const me = (await (
    await fetch(`${o.apiUrl}/api/me`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { id: string };
  const userId = Number(me.id);
  await o.fund(userId);

  const record: TraderRecord = {
    userId,
    acknowledged: new Map(),
    abandoned: [],
    heard: new Map(),
    outages: [],
    replays: { complete: 0, gap: 0 },
    overdueFound: 0,
    connected: () => socket.connected,
  };
  const cursor = createUserEventCursor();
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(o.gatewayUrl, {
    transports: ['websocket'],
    auth: (cb) => cb({ token, since: cursor.since(token) }),
    reconnectionDelay: 300,
    reconnectionDelayMax: 2000,
    randomizationFactor: 0.5,
  });
  socket.on('order', (order, meta) => {
    if (cursor.accept(meta?.id)) record.heard.set(order.id, order.status);
  });
  socket.on('hello', (hello) => {
    if (!cursor.hello(hello)) {
      if (hello.replay === 'complete') record.replays.complete++;
      return;
    }
    record.replays.gap++;
    void readOrdersAgain();
  });
  /** GET over the api, asked again after a failure as the app's queries are (a few times). */
  const getJson = async <T>(path: string): Promise<T | null> => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const res = await fetch(`${o.apiUrl}${path}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      if (res?.ok) return (await res.json()) as T;
      await res?.body?.cancel();
      await new Promise((r) => setTimeout(r, 1000 * 2 ** attempt));
    }
    return null;
  };
  /** After a gap, as the app does: the orders over the api (their newest statuses). */
  const readOrdersAgain = async () => {
    const page = await getJson<{ items: Order[] }>('/api/orders?limit=100');
    for (const order of page?.items ?? []) record.heard.set(order.id, order.status);
  };
  /** As the app's order list does: a direct look at an order 5 s past expiry still open to it. */
  const expiries = new Map<string, number>();
  const asked = new Map<string, number>();
  const overdue = setInterval(() => {
    const now = Date.now();
    for (const [id, expiresAt] of expiries) {
      const heard = record.heard.get(id);
      if (heard !== undefined && heard !== 'open') expiries.delete(id);
      else if (now - expiresAt > 5000 && now - (asked.get(id) ?? 0) > 5000) {
        asked.set(id, now);
        void getJson<Order>(`/api/orders/${id}`).then((order) => {
          if (!order || order.status === 'open' || record.heard.get(id) === order.status) return;
          record.overdueFound++;
          record.heard.set(id, order.status);
        });
      }
    }
  }, 1000);
  socket.on('disconnect', () => record.outages.push([Date.now(), null]));
  socket.on('connect', () => {
    const open = record.outages.at(-1);
    if (open && open[1] === null) open[1] = Date.now();
  });

  let running = true;
  const place = async () => {
    const key = randomUUID();
    const body = JSON.stringify({
      productId: 'BTCUSDT',
      direction: Math.random() < 0.5 ? 'up' : 'down',
      amount: o.stake,
      duration: 30,
    });
    for (let attempt = 1; attempt <= 12; attempt++) {
      const res = await fetch(`${o.apiUrl}/api/orders`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body,
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      if (res && (res.status === 200 || res.status === 201)) {
        const order = (await res.json()) as Order;
        record.acknowledged.set(order.id, key);
        expiries.set(order.id, order.expiresAt);
        return;
      }
      // A refusal that says it is final (409 QUOTE_STALE, INSUFFICIENT_BALANCE): not placed.
      if (res && res.status < 500 && res.status !== 429) {
        await res.body?.cancel();
        return;
      }
      await res?.body?.cancel();
      await new Promise((r) => setTimeout(r, Math.min(3000, 200 * 2 ** attempt) * Math.random()));
    }
    record.abandoned.push(key);
  };
  const loop = (async () => {
    while (running) {
      await place();
      await new Promise((r) => setTimeout(r, o.everyMs * (0.5 + Math.random())));
    }
  })();
  return {
    ...record,
    get overdueFound() {
      return record.overdueFound;
    },
    connected: () => socket.connected,
    async stop() {
      running = false;
      await loop;
    },
    close: () => {
      clearInterval(overdue);
      socket.disconnect();
    },
  };
}
