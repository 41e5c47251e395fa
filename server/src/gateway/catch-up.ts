import type { Redis } from 'ioredis';
import type { Logger } from '@infra/logger';
import type { Gateway } from './gateway';

/**
 * Pub/sub delivers only to whoever is subscribed: while the adapter's subscriber is away, user
 * events published meanwhile never reach this gateway, and its sockets, still connected, would
 * not replay them. When it is ready again (ioredis has re-sent its subscriptions before it says
 * so, and a PING answered after them means they took), the sockets are caught up.
 */
export function catchUpAfterLoss(
  sub: Pick<Redis, 'on' | 'ping'>,
  gateway: Pick<Gateway, 'userEventsLost' | 'userEventsBack'>,
  log: Logger,
): void {
  let lost = false;
  sub.on('close', () => {
    lost = true;
    gateway.userEventsLost();
  });
  sub.on('ready', () => {
    if (!lost) return;
    lost = false;
    sub
      .ping()
      .then(() => gateway.userEventsBack())
      .then(
        ({ sockets, gaps }) =>
          log.info(
            { sockets, gaps },
            'user events: sockets caught up after the subscription came back',
          ),
        (err: Error) => log.warn({ err: err.message }, 'user events: catch-up failed'),
      );
  });
}
