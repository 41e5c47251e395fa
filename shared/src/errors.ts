import type { z } from 'zod';
import type { errorDto } from './dto';

/** Stable error codes of the public contract (API.md). The client maps each to a translated text. */
export const errorCodes = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'RATE_LIMITED',
  'ACCOUNT_TAKEN',
  'INVITE_INVALID',
  'BAD_CREDENTIALS',
  'TOO_MANY_ATTEMPTS',
  'PASSWORD_MISMATCH',
  'TRADE_PASSWORD_MISMATCH',
  'TERMS_NOT_ACCEPTED',
  'WRONG_PASSWORD',
  'WRONG_TRADE_PASSWORD',
  'INSUFFICIENT_BALANCE',
  'AMOUNT_OUT_OF_RANGE',
  'DURATION_INVALID',
  'MARKET_CLOSED',
  'PRODUCT_MAINTENANCE',
  'QUOTE_STALE',
  'RATE_CHANGED',
  'IDEMPOTENCY_MISMATCH',
  'ACCOUNT_ALREADY_BOUND',
  'KYC_REQUIRED',
  'HOLDER_NAME_MISMATCH',
  'DAILY_LIMIT_REACHED',
  'TOO_MANY_PENDING_DEPOSITS',
  'TX_ID_IN_USE',
  'TX_NOT_FOUND',
  'TX_NOT_TO_YOUR_ADDRESS',
  'CHAIN_UNAVAILABLE',
  'ALREADY_RESUBMITTED',
  'UPLOAD_INVALID',
  'UPLOAD_TOO_LARGE',
  'UPLOAD_TOO_MANY_PIXELS',
  'INVALID_STATE',
  'PRACTICE_NOT_ALLOWED',
  'PRACTICE_ORDERS_OPEN',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'ACCOUNT_FROZEN',
  'LAST_ADMIN',
  'UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** The one error body of every 4xx and 5xx. */
export type ErrorBody = z.infer<typeof errorDto>;
