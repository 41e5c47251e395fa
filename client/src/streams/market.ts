import {
  ReplaySubject,
  defer,
  filter,
  map,
  merge,
  share,
  shareReplay,
  type Observable,
} from 'rxjs';
import type { MarketSnapshot, MarketSnapshotItem, ProductStatusEvent, Tick } from '@shared/market';
import type { Channel } from '@shared/socket';
import { createChannelHub, type ChannelHub } from './channel-hub';
import { dropStaleTicks } from './dedupe';
import { latestPerFrame } from './frame';
import { connection$, socketEvent$, socketTransport } from './socket';
import { offlineWatch } from './watchdog';

/** No market snapshot for this long while subscribed means the feed is lost (1 s beat). */
export const MARKET_STALE_MS = 3_500;

let hub: ChannelHub | null = null;
function channels(): ChannelHub {
  hub ??= createChannelHub(socketTransport);
  return hub;
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
