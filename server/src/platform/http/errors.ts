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

export const validationFailed = (field: string, message: string) =>
  new AppError(400, 'VALIDATION_FAILED', message, field);
export const notFound = (what = 'Not found') => new AppError(404, 'NOT_FOUND', what);
export const unauthenticated = () => new AppError(401, 'UNAUTHENTICATED', 'Login required');
export const forbidden = () => new AppError(403, 'FORBIDDEN', 'Not allowed');
export const conflict = (code: ErrorCode, message: string, field?: string) =>
  new AppError(409, code, message, field);
export const badRequest = (code: ErrorCode, message: string, field?: string) =>
  new AppError(400, code, message, field);
