import type { ErrorCode } from '@shared/errors';

/**
 * The one error type services throw. `status` and `code` go to the client; `report` says whether
 * the error handler logs it as a fault (only unexpected errors are faults).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    readonly report = false,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/**
 * A refusal that passes with time (a throttle, a full queue): the error handler sends
 * `Retry-After` (whole seconds, rounded up) and `retryAfterMs` in the body, so a client can say
 * how long to wait.
 */
export class RetryLater extends AppError {
  constructor(
    status: 429 | 503,
    code: ErrorCode,
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(status, code, message);
    this.name = 'RetryLater';
  }
}

/** 429 RATE_LIMITED with the time until the throttle lets the caller through again. */
export const rateLimited = (message: string, retryAfterMs: number) =>
  new RetryLater(429, 'RATE_LIMITED', message, retryAfterMs);

/** 503 UNAVAILABLE: the process is too busy for this request just now; try again shortly. */
export const unavailable = (message: string, retryAfterMs: number) =>
  new RetryLater(503, 'UNAVAILABLE', message, retryAfterMs);

export const validationFailed = (field: string, message: string) =>
  new AppError(400, 'VALIDATION_FAILED', message, field);
export const notFound = (what = 'Not found') => new AppError(404, 'NOT_FOUND', what);
export const unauthenticated = () => new AppError(401, 'UNAUTHENTICATED', 'Login required');
export const forbidden = () => new AppError(403, 'FORBIDDEN', 'Not allowed');
export const conflict = (code: ErrorCode, message: string, field?: string) =>
  new AppError(409, code, message, field);
export const badRequest = (code: ErrorCode, message: string, field?: string) =>
  new AppError(400, code, message, field);
