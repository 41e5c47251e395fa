import type { ErrorRequestHandler } from 'express';
import type { ErrorBody } from '@shared/errors';
import type { Logger } from '@infra/logger';
import { AppError } from './errors';
import { refusalOf } from './refusals';

/**
 * The one error handler: AppErrors become their status and code; what the request parsers refuse
 * (JSON, encodings, multipart, broken path escapes) becomes a 4xx through `refusalOf`; anything
 * else is a fault: logged, and answered 500 INTERNAL without detail.
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    // The request's id (request-log.ts) in the body, so a user's report leads to the log lines;
    // its logger carries the id into the fault's line.
    const requestId = typeof req.id === 'string' ? req.id : undefined;
    const reqLog: Logger = req.log ?? log;
    const body = (
      code: ErrorBody['error']['code'],
      message: string,
      field?: string,
    ): ErrorBody => ({
      error: { code, message, ...(field ? { field } : {}), ...(requestId ? { requestId } : {}) },
    });
    const refusal = err instanceof AppError ? err : refusalOf(err);
    if (refusal) {
      if (refusal.report) reqLog.error({ err, path: req.path }, refusal.message);
      res.status(refusal.status).json(body(refusal.code, refusal.message, refusal.field));
      return;
    }
    reqLog.error({ err, path: req.path }, 'unhandled error');
    res.status(500).json(body('INTERNAL', 'Something went wrong'));
  };
}
