import type { Logger } from '@infra/logger';

/**
 * What a throttle does when its store cannot answer (Redis away): lets the request through and
 * says so in the log, at most once a minute per throttle. A throttle guards against excess; an
 * outage of its store must not refuse every trader's orders (DECISIONS.md, Public market reads and order throttles).
 */
export function failOpen(what: string, log?: Pick<Logger, 'warn'>) {
  let loggedAt = -Infinity;
  return (err: unknown): void => {
    const t = Date.now();
    if (t - loggedAt < 60_000) return;
    loggedAt = t;
    log?.warn(
      { err: err instanceof Error ? err.message : String(err), throttle: what },
      'throttle store unavailable; letting requests through',
    );
  };
}
