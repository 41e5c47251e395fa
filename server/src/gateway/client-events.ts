import type { RateLimiterMemory } from 'rate-limiter-flexible';
import { channelsSchema, subscribeOptionsSchema } from '@shared/socket-schemas';
import {
  parseChannel,
  socketLimits,
  type AckError,
  type ClientEventAnswer,
  type ClientToServerEvents,
  type SubscribeAck,
} from '@shared/socket';
import type { MarketSnapshot } from '@shared/market/model';
import type { createBacklog } from './backlog';
import type { createTickRing } from './tick-ring';
import type { Ack, Conn } from './socket-server';

/** What sockets ask of the gateway: subscriptions with their snapshots, and the time. */

type Backlog = ReturnType<typeof createBacklog>;

/** What the gateway keeps of the market for sockets that subscribe: last snapshot, recent ticks. */
export interface MarketCache {
  snapshot: MarketSnapshot | null;
  ticks: ReturnType<typeof createTickRing>;
}

/** The market-data channels a socket is in (its rooms, less its user and session rooms). */
function channelsOf(conn: Conn) {
  const out = new Set<string>();
  for (const room of conn.rooms) if (parseChannel(room)) out.add(room);
  return out;
}

/** Joins the channels named by `raw`; the answer, and on success the channels as parsed. */
function subscribe(
  productIds: ReadonlySet<string>,
  conn: Conn,
  raw: unknown,
): { answer: SubscribeAck; channels?: string[] } {
  const refuse = (error: AckError['error']) => ({ answer: { error } });
  const parsed = channelsSchema.safeParse(raw);
  if (!parsed.success)
    return refuse({ code: 'VALIDATION_FAILED', message: 'channels must be a list of names' });
  for (const name of parsed.data) {
    const ch = parseChannel(name);
    if (!ch) return refuse({ code: 'VALIDATION_FAILED', message: `unknown channel ${name}` });
    if (ch.kind === 'ticks' && !productIds.has(ch.productId))
      return refuse({ code: 'NOT_FOUND', message: `unknown product ${ch.productId}` });
  }
  const channels = channelsOf(conn);
  const fresh = [...new Set(parsed.data)].filter((c) => !channels.has(c));
  if (channels.size + fresh.length > socketLimits.maxChannels)
    return refuse({ code: 'TOO_MANY_CHANNELS' });
  if (fresh.length) conn.join(fresh);
  return { answer: { ok: true }, channels: parsed.data };
}

/**
 * What a subscription starts with: the market snapshot; per product the latest tick, or, when
 * the client said which tick it holds, every one after it the ring has (after a `ticksGap` for
 * those it no longer has). Sent right after the join, so no broadcast falls in between.
 */
function sendSnapshots(
  market: MarketCache,
  backlog: Backlog,
  conn: Conn,
  channels: string[],
  after: Record<string, number>,
) {
  for (const name of channels) {
    const ch = parseChannel(name);
    if (ch?.kind === 'market' && market.snapshot) conn.sendEvent('market', market.snapshot);
    if (ch?.kind !== 'ticks') continue;
    const held = after[ch.productId];
    if (held === undefined) {
      const t = market.ticks.latest(ch.productId);
      if (t) conn.sendEvent('tick', t);
      continue;
    }
    const { ticks, gap } = market.ticks.after(ch.productId, held);
    if (gap) conn.sendEvent('ticksGap', gap);
    for (const t of ticks) conn.sendEvent('tick', t);
    backlog.check(conn);
  }
}

/** The client events' handlers: subscribe, unsubscribe and time, each rate limited per socket. */
export function clientEventHandlers(
  limiter: RateLimiterMemory,
  productIds: ReadonlySet<string>,
  market: MarketCache,
  backlog: Backlog,
) {
  /**
   * A client event's handler (ClientToServerEvents): its arguments as they came off the wire,
   * parsed by the handler, and its answer typed by the contract. Every event spends a token;
   * past the rate it is answered RATE_LIMITED, which every answer type admits (checked below).
   */
  const limited =
    <E extends keyof ClientToServerEvents>(
      handle: (conn: Conn, args: unknown[], answer: (a: ClientEventAnswer<E>) => void) => void,
    ) =>
    (conn: Conn, args: unknown[], ack: Ack | null) => {
      if (!ack) return; // every event of ours is a request: without an ack, nothing to answer
      limiter.consume(conn.id).then(
        () => handle(conn, args, ack),
        () => ack({ error: { code: 'RATE_LIMITED' } } satisfies AckError),
      );
    };
  const everyAnswerAdmitsErrors: {
    [E in keyof ClientToServerEvents]: AckError extends ClientEventAnswer<E> ? true : never;
  } = { subscribe: true, unsubscribe: true, time: true };
  void everyAnswerAdmitsErrors;
  const handlers: { [E in keyof ClientToServerEvents]: ReturnType<typeof limited<E>> } = {
    subscribe: limited<'subscribe'>((conn, [raw, rawOptions], answer) => {
      const options = subscribeOptionsSchema.safeParse(rawOptions);
      if (!options.success) return answer({ error: { code: 'VALIDATION_FAILED' } });
      const subscribed = subscribe(productIds, conn, raw);
      answer(subscribed.answer);
      if (subscribed.channels)
        sendSnapshots(market, backlog, conn, subscribed.channels, options.data?.after ?? {});
    }),
    unsubscribe: limited<'unsubscribe'>((conn, [raw], answer) => {
      const parsed = channelsSchema.safeParse(raw);
      if (!parsed.success) return answer({ error: { code: 'VALIDATION_FAILED' } });
      for (const ch of parsed.data) if (parseChannel(ch)) conn.leave(ch);
      answer({ ok: true });
    }),
    time: limited<'time'>((_conn, _args, answer) => answer({ serverTime: Date.now() })),
  };
  return handlers;
}
