import type { RequestHandler } from 'express';
import type { Histogram } from 'prom-client';

/**
 * The route label of a finished request: the Express route pattern that answered it
 * (`/api/orders/:id`), never the raw path, so ids and probes cannot multiply the series. A
 * request no route answered is `unmatched` under /api (404s, refusals by middleware) and
 * `static` elsewhere (the client's files).
 */
export function routeLabel(
  req: { route?: { path?: unknown }; baseUrl?: string; originalUrl: string },
  base = req.baseUrl ?? '',
): string {
  const pattern = req.route?.path;
  if (typeof pattern === 'string') return `${base}${pattern}` || '/';
  return req.originalUrl.startsWith('/api/') || req.originalUrl === '/api' ? 'unmatched' : 'static';
}

/** Observes every request's duration by method, route pattern and status when it finishes. */
export function httpMetrics(duration: Histogram<'method' | 'route' | 'status'>): RequestHandler {
  return (req, res, next) => {
    const end = duration.startTimer();
    res.once('finish', () => {
      const base = (res.locals as { routeBase?: string }).routeBase;
      end({ method: req.method, route: routeLabel(req, base), status: String(res.statusCode) });
    });
    next();
  };
}

/**
 * First in a mounted router (`/api`): notes where it is mounted, since Express restores
 * `req.baseUrl` when an error leaves the router, before the response finishes.
 */
export const markRouteBase: RequestHandler = (req, res, next) => {
  (res.locals as { routeBase?: string }).routeBase = req.baseUrl;
  next();
};
