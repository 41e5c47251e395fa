import multer from 'multer';
import { AppError, validationFailed } from './errors';

/**
 * What the request parsers refuse, as the API's errors. Parsers speak their own language
 * (body-parser's `type`, zlib's `Z_*` codes, multer's `LIMIT_*` codes, busboy's bare Errors); a
 * client gets one stable code per kind of problem instead, and never a 500 for a request it
 * shaped badly. Only the error handler calls `refusalOf`.
 */

/** Any failure of the multipart parser, wrapped by multipartForm (multipart.ts) so it is told apart. */
export class FormError extends Error {
  constructor(cause: unknown) {
    super('multipart form refused', { cause });
    this.name = 'FormError';
  }
}

const tooLarge = (message: string, field: string) =>
  new AppError(413, 'PAYLOAD_TOO_LARGE', message, field);
const unsupported = (message: string, field: string) =>
  new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', message, field);

/** A Content-Encoding the parser does not decode (JSON: gzip, deflate, br; forms: none). */
export const encodingUnsupported = (accepted = 'gzip, deflate, br or identity') =>
  unsupported(`Content-Encoding must be ${accepted}`, 'Content-Encoding');

/** The fields body-parser, raw-body and http-errors put on their errors. */
interface ParserError {
  type?: unknown;
  status?: unknown;
  code?: unknown;
  limit?: unknown;
}

const kB = (limit: unknown) =>
  typeof limit === 'number' ? `${Math.floor(limit / 1024)} kB` : 'the limit';

/** body-parser's refusals, by their `type`. */
function bodyRefusal(e: ParserError): AppError | null {
  switch (e.type) {
    case 'entity.parse.failed':
      return validationFailed('body', 'Body is not valid JSON');
    case 'entity.too.large':
      return tooLarge(`Body is larger than ${kB(e.limit)}`, 'body');
    case 'parameters.too.many':
      return tooLarge('Body has too many parameters', 'body');
    case 'querystring.parse.rangeError':
      return validationFailed('body', 'Body is nested too deeply');
    case 'charset.unsupported':
      return unsupported('Content-Type: the charset must be utf-8', 'Content-Type');
    case 'encoding.unsupported':
      return encodingUnsupported();
    case 'request.size.invalid':
      return validationFailed('body', 'Body length does not match Content-Length');
    case 'request.aborted':
      return validationFailed('body', 'The request was aborted');
    case 'stream.not.readable':
      // The client went away before the body was read.
      return validationFailed('body', 'Body could not be read');
    case 'stream.encoding.set':
      // Only our own code can cause this (something called req.setEncoding before the parser):
      // the client still gets a refusal, and the handler reports it as a fault.
      return new AppError(400, 'VALIDATION_FAILED', 'Body could not be read', 'body', true);
    default:
      return null;
  }
}

/** multer's refusals, by their code; everything else the multipart parser says is "malformed". */
function formRefusal(cause: unknown): AppError {
  if (!(cause instanceof multer.MulterError))
    // busboy: no boundary, a truncated part, a bad part header; or the client went away.
    return validationFailed('body', 'Form data is malformed');
  const field = cause.field ?? 'body';
  // multer 2 raises more codes than its type names (MISSING_FIELD_NAME, INVALID_FIELD_NAME, …).
  switch (cause.code as string) {
    case 'LIMIT_FILE_SIZE':
      return new AppError(413, 'UPLOAD_TOO_LARGE', 'Images may be at most 5 MB', field);
    case 'LIMIT_UNEXPECTED_FILE':
      return validationFailed(field, `${field}: unexpected file`);
    case 'LIMIT_FIELD_VALUE':
      return validationFailed(field, `${field}: too long`);
    case 'LIMIT_FILE_COUNT':
      return validationFailed('body', 'Form data has too many files');
    case 'LIMIT_FIELD_COUNT':
    case 'LIMIT_PART_COUNT':
      return validationFailed('body', 'Form data has too many fields');
    case 'LIMIT_FIELD_KEY':
      return validationFailed('body', 'Form data has a field name that is too long');
    case 'MISSING_FIELD_NAME':
    case 'INVALID_FIELD_NAME':
    case 'LIMIT_FIELD_NESTING':
    case 'LIMIT_FIELD_ARRAY_INDEX':
      return validationFailed(field, `${field}: not a field name this form has`);
    default:
      return validationFailed('body', 'Form data is malformed');
  }
}

/** A status the parsers use for the client's mistakes: 400-499. */
const clientStatus = (status: unknown): status is number =>
  typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500;

/**
 * The API's refusal for an error a parser raised about the request, or null when `err` is no
 * such error (a fault: the handler answers 500 and logs it).
 */
export function refusalOf(err: unknown): AppError | null {
  if (err instanceof FormError) return formRefusal(err.cause);
  if (!err || typeof err !== 'object') return null;
  const e = err as ParserError;
  const known = bodyRefusal(e);
  if (known) return known;
  if (!clientStatus(e.status)) return null;
  // body-parser wraps a decompression failure (gzip or deflate that is no such thing) as a 400
  // carrying zlib's code; the router marks a path segment with broken %-escapes as a 400 URIError.
  if (typeof e.code === 'string' && /^(Z_|ERR_)/.test(e.code))
    return validationFailed('body', 'Body could not be decompressed (Content-Encoding)');
  if (err instanceof URIError) return validationFailed('path', 'Path has a broken %-escape');
  // Any other http-errors refusal of a parser: its status when it is one we name, else a 400.
  if (e.status === 413) return tooLarge('Request is too large', 'body');
  if (e.status === 415) return unsupported('Request has an unsupported media type', 'Content-Type');
  return validationFailed('body', 'The request could not be read');
}
