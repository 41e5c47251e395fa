import type { ErrorRequestHandler } from 'express';
import type { ErrorBody } from '@shared/contract/error-body';
import type { Logger } from '@infra/logger';
import { isDatabaseOutage } from '@infra/db';
import { isRedisOutage } from '@infra/redis';
import { everyMs } from '../redis';
import { AppError, RetryLater, unavailable } from './errors';
import { refusalOf } from './refusals';

/**
 * The one error handler: AppErrors become their status and code; what the request parsers refuse
 * (JSON, encodings, multipart, broken path escapes) becomes a 4xx through `refusalOf`; the
 * database or Redis out of reach is 503 UNAVAILABLE (retryable, a warning at most every 5 s);
 * anything else is a fault: logged, and answered 500 INTERNAL without detail.
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  const warnOutage = everyMs(5000);
  return (err: unknown, req, res, _next) => {
    // The request's id (request-log.ts) in the body, so a user's report leads to the log lines;
    // its logger carries the id into the fault's line.
    const requestId = typeof req.id === 'string' ? req.id : undefined;
    const reqLog: Logger = req.log ?? log;
    const body = (
      code: ErrorBody['error']['code'],
      message: string,
      field?: string,
      retryAfterMs?: number,
    ): ErrorBody => ({
      error: {
        code,
        message,
        ...(field ? { field } : {}),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        ...(requestId ? { requestId } : {}),
      },
    });
    const refusal = err instanceof AppError ? err : refusalOf(err);
    if (refusal) {
      if (refusal.report) reqLog.error({ err, path: req.path }, refusal.message);
      const wait = refusal instanceof RetryLater ? refusal.retryAfterMs : undefined;
      // Retry-After is whole seconds (RFC 9110), rounded up so a client that obeys it is let in.
      if (wait !== undefined)
        res.setHeader('Retry-After', String(Math.max(1, Math.ceil(wait / 1000))));
      res.status(refusal.status).json(body(refusal.code, refusal.message, refusal.field, wait));
      return;
    }
    if (isDatabaseOutage(err) || isRedisOutage(err)) {
      // A store out of reach is not this request's fault: retryable, and no stack per request.
      const outage = unavailable('A service is out of reach; please try again shortly', 2000);
      if (warnOutage()) reqLog.warn({ err: (err as Error).message, path: req.path }, 'store away');
      res.setHeader('Retry-After', '2');
      res.status(503).json(body(outage.code, outage.message, undefined, outage.retryAfterMs));
      return;
    }
    reqLog.error({ err, path: req.path }, 'unhandled error');
    res.status(500).json(body('INTERNAL', 'Something went wrong'));
  };
}
