import {
  asyncScheduler,
  BehaviorSubject,
  Observable,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { Channel } from '@shared/socket';

/** What a subscribe request came back with; 'TIMEOUT' when no ack arrived in time. */
export type SubscribeResult = { ok: true } | { error: { code: string } };

/** The little the hub needs from a socket; the real one is in socket.ts, tests pass a fake. */
export interface ChannelTransport {
  isConnected(): boolean;
  subscribe(channels: Channel[]): Promise<SubscribeResult>;
  unsubscribe(channels: Channel[]): void;
  /** Calls `listener` on every (re)connection. */
  onConnect(listener: () => void): void;
}

export interface ChannelHubOptions {
  /** How long a channel stays subscribed after its last holder left (page to page churn). */
  lingerMs?: number;
  /** Wait before asking again after a refusal that may pass (rate limit, lost ack). */
  retryMs?: number;
  scheduler?: SchedulerLike;
}

export interface ChannelHub {
  /** Holds `channel` for as long as the returned observable is subscribed; never emits. */
  hold(channel: Channel): Observable<never>;
  /** The channels held (or lingering) right now. */
  active$: Observable<ReadonlySet<Channel>>;
}

const retryable = new Set(['RATE_LIMITED', 'TIMEOUT']);

/**
 * Reference-counted server subscriptions. The first holder of a channel sends `subscribe`, the
 * last one leaving sends `unsubscribe` (after `lingerMs`, so navigating between two pages that
 * both show the market does not unsubscribe and resubscribe). A new connection knows no rooms,
 * so every held channel is subscribed again on each (re)connection. Requests are only sent while
 * connected: socket.io would otherwise buffer them and send them again next to the ones the
 * reconnection sends.
 */
export function createChannelHub(
  transport: ChannelTransport,
  { lingerMs = 1000, retryMs = 2000, scheduler = asyncScheduler }: ChannelHubOptions = {},
): ChannelHub {
  const holders = new Map<Channel, number>();
  const lingering = new Map<Channel, Subscription>();
  const active$ = new BehaviorSubject<ReadonlySet<Channel>>(new Set());
  const publish = () => active$.next(new Set(holders.keys()));

  function send(channels: Channel[]): void {
    if (channels.length === 0 || !transport.isConnected()) return;
    void transport.subscribe(channels).then((result) => {
      if (!('error' in result) || !retryable.has(result.error.code)) return;
      scheduler.schedule(() => send(channels.filter((c) => holders.has(c))), retryMs);
    });
  }

  transport.onConnect(() => send([...holders.keys()]));

  function release(channel: Channel): void {
    lingering.delete(channel);
    holders.delete(channel);
    publish();
    if (transport.isConnected()) transport.unsubscribe([channel]);
  }

  function hold(channel: Channel): Observable<never> {
    return new Observable<never>(() => {
      const count = holders.get(channel) ?? 0;
      holders.set(channel, count + 1);
      const pending = lingering.get(channel);
      if (pending) {
        // Taken again while lingering: the server subscription is still there.
        pending.unsubscribe();
        lingering.delete(channel);
      } else if (count === 0) {
        publish();
        send([channel]);
      }
      return () => {
        const left = (holders.get(channel) ?? 1) - 1;
        holders.set(channel, left);
        if (left > 0) return;
        lingering.set(
          channel,
          scheduler.schedule(() => release(channel), lingerMs),
        );
      };
    });
  }

  return { hold, active$: active$.asObservable() };
}
