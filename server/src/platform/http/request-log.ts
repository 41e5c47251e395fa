import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@infra/logger';

/**
 * A request id a client or a proxy may choose: short, and only characters that are safe in a log
 * line and a header (no spaces, quotes or control characters).
 */
const requestIdPattern = /^[A-Za-z0-9\-_.:/=+@]{1,128}$/;

/** The incoming `X-Request-Id` when it is acceptable, else a fresh UUID. */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && requestIdPattern.test(header) ? header : randomUUID();
}

/** Probes answer every few seconds: their successes stay out of the info log. */
const probes = new Set(['/healthz', '/readyz']);
/** The path asked for: Express's `originalUrl` (routers strip their mount path from `url`). */
const pathOf = (req: IncomingMessage) =>
  ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?', 1)[0]!;

/**
 * Request ids and the access log (pino-http): every request gets an id (its `X-Request-Id`, or a
 * generated one), answered in the `X-Request-Id` header and kept on `req.id` for error bodies;
 * every response writes one line at info (5xx at error) with the method, path, status, duration,
 * client address and the id, and `req.log` carries the id into any other line about the request.
 * Never a header or a body: tokens and passwords travel in them.
 */
export function requestLog(log: Logger): RequestHandler {
  const middleware = pinoHttp({
    logger: log,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const id = requestIdOf(req.headers['x-request-id']);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customProps: (req: IncomingMessage) => ({
      requestId: req.id as string,
      // Express's address (X-Forwarded-For only from TRUST_PROXY's proxies); the socket's before
      // Express has set it up.
      ip: (req as { ip?: string }).ip ?? req.socket.remoteAddress,
    }),
    customLogLevel: (req: IncomingMessage, res: ServerResponse, err?: Error) => {
      if (probes.has(pathOf(req))) return res.statusCode < 400 ? 'debug' : 'warn';
      return err || res.statusCode >= 500 ? 'error' : 'info';
    },
    customSuccessMessage: (req: IncomingMessage, res: ServerResponse) =>
      `${req.method} ${pathOf(req)} ${res.statusCode}`,
    customErrorMessage: (req: IncomingMessage, res: ServerResponse) =>
      `${req.method} ${pathOf(req)} ${res.statusCode}`,
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customAttributeKeys: { responseTime: 'ms' },
  });
  return middleware;
}
