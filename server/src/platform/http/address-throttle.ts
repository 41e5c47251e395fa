import type { RequestHandler } from 'express';
import type { Logger } from '@infra/logger';
import { failOpen } from '../fail-open';
import { addressKey, type Limiter } from '../rate-limit';
import { rateLimited } from './errors';

/**
 * Refuses a client address past `limiter`'s figure with 429 RATE_LIMITED, Retry-After and
 * `retryAfterMs` (the rest of its window), before anything else is done for the request. The
 * address is `req.ip` (X-Forwarded-For only from the proxies TRUST_PROXY names), IPv6 by /64.
 */
export function throttlePerAddress(
  limiter: Limiter,
  opts: { name: string; log?: Pick<Logger, 'warn'> },
): RequestHandler {
  const storeFailed = failOpen(opts.name, opts.log);
  return (req, _res, next) => {
    limiter.take(addressKey(req.ip ?? req.socket.remoteAddress ?? '')).then(
      (taken) =>
        taken.ok
          ? next()
          : next(
              rateLimited(
                'Too many requests from this address; try again later',
                taken.retryAfterMs,
              ),
            ),
      (err: unknown) => {
        storeFailed(err);
        next();
      },
    );
  };
}
