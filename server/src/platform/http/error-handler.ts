import type { ErrorRequestHandler } from 'express';
import type { ErrorBody } from '@shared/errors';
import type { Logger } from '../logger';
import { AppError } from './errors';

/** The one error handler: AppErrors become their status and code; body-parser errors a 400/413. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const body = (
      code: ErrorBody['error']['code'],
      message: string,
      field?: string,
    ): ErrorBody => ({
      error: { code, message, ...(field ? { field } : {}) },
    });
    if (err instanceof AppError) {
      if (err.report) log.error({ err, path: req.path }, err.message);
      res.status(err.status).json(body(err.code, err.message, err.field));
      return;
    }
    const e = err as { type?: string; status?: number };
    if (e.type === 'entity.parse.failed') {
      res.status(400).json(body('VALIDATION_FAILED', 'Body is not valid JSON', 'body'));
      return;
    }
    if (e.type === 'entity.too.large') {
      res.status(413).json(body('VALIDATION_FAILED', 'Body is too large', 'body'));
      return;
    }
    log.error({ err, path: req.path }, 'unhandled error');
    res.status(500).json(body('INTERNAL', 'Something went wrong'));
  };
}
