import {
  ReplaySubject,
  defer,
  filter,
  finalize,
  map,
  merge,
  share,
  shareReplay,
  tap,
  type Observable,
} from 'rxjs';
import type {
  MarketSnapshot,
  MarketSnapshotItem,
  ProductStatusEvent,
  Tick,
} from '@shared/market/model';
import { parseChannel, type Channel, type SubscribeOptions, type TicksGap } from '@shared/socket';
import { createChannelHub, type ChannelHub } from './channel-hub';
import { dropStaleTicks } from './dedupe';
import { latestPerFrame } from './frame';
import { connection$, socketEvent$, socketTransport } from './socket';
import { offlineWatch } from './watchdog';

/** No market snapshot for this long while subscribed means the feed is lost (1 s beat). */
export const MARKET_STALE_MS = 3_500;

let hub: ChannelHub | null = null;
function channels(): ChannelHub {
  hub ??= createChannelHub({
    ...socketTransport,
    subscribe: (list) => socketTransport.subscribe(list, resumeFrom(list)),
  });
  return hub;
}

/** Per product observed, the seq of the last tick passed on (while its stream is observed). */
const heldSeq = new Map<string, number>();

/**
 * A subscription names the last tick held of each product, so the gateway sends the ticks after
 * it (a re-subscription after a reconnection) rather than the latest alone.
 */
export function resumeFrom(list: readonly Channel[], held = heldSeq): SubscribeOptions {
  const after: Record<string, number> = {};
  for (const name of list) {
    const ch = parseChannel(name);
    const seq = ch?.kind === 'ticks' ? held.get(ch.productId) : undefined;
    if (ch?.kind === 'ticks' && seq !== undefined) after[ch.productId] = seq;
  }
  return Object.keys(after).length ? { after } : {};
}

const streams = new Map<Channel, Observable<unknown>>();

/**
 * The data of one channel: `market` snapshots or one product's ticks. Observers share one
 * server subscription: subscribe goes out with the first, unsubscribe after the last. Late
 * observers get the latest value at once (the server only sends its snapshot to the first).
 */
export function channel$(channel: 'market'): Observable<MarketSnapshot>;
export function channel$(channel: `ticks:${string}`): Observable<Tick>;
export function channel$(channel: Channel): Observable<MarketSnapshot | Tick> {
  let stream = streams.get(channel) as Observable<MarketSnapshot | Tick> | undefined;
  if (!stream) {
    const data: Observable<MarketSnapshot | Tick> =
      channel === 'market'
        ? socketEvent$('market')
        : socketEvent$('tick').pipe(
            filter((tick) => `ticks:${tick.id}` === channel),
            dropStaleTicks(),
            tap((tick) => heldSeq.set(tick.id, tick.seq)),
            finalize(() => heldSeq.delete(channel.slice('ticks:'.length))),
          );
    stream = defer(() => merge(channels().hold(channel), data)).pipe(
      share({ connector: () => new ReplaySubject(1), resetOnRefCountZero: true }),
    );
    streams.set(channel, stream);
  }
  return stream;
}

/** One product's ticks, in `seq` order, without repeats. */
export function ticks$(productId: string): Observable<Tick> {
  return channel$(`ticks:${productId}`);
}

/**
 * Ticks of the product the gateway could not replay after a reconnection: what was drawn from
 * them (a chart) must be loaded again. A reconnection without one missed nothing.
 */
export function ticksGap$(productId: string): Observable<TicksGap> {
  return socketEvent$('ticksGap').pipe(filter((gap) => gap.product === productId));
}

/**
 * The market snapshot as a map by product id; at most one per animation frame (a snapshot that
 * comes while a frame is pending replaces the one waiting), so Home's list draws once a frame.
 */
export const marketById$: Observable<ReadonlyMap<string, MarketSnapshotItem>> = channel$(
  'market',
).pipe(
  latestPerFrame(),
  map(({ latest }) => new Map(latest.products.map((item) => [item.id, item]))),
  shareReplay({ bufferSize: 1, refCount: true }),
);

/** Products opening, closing or entering maintenance. */
export const productStatus$: Observable<ProductStatusEvent> = socketEvent$('product').pipe(share());

/** True while the app should show "network signal lost" (see watchdog.ts). */
export const offline$: Observable<boolean> = defer(() =>
  offlineWatch({
    connection$,
    marketActive$: channels().active$.pipe(map((active) => active.has('market'))),
    snapshots$: socketEvent$('market'),
    staleMs: MARKET_STALE_MS,
  }),
).pipe(shareReplay({ bufferSize: 1, refCount: true }));
