import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import { AppError, validationFailed } from '@server/platform/http/errors';
import { UPLOAD_MAX_BYTES, type IncomingFile } from './upload.service';

/** Turns the parser's errors into the API's: 413 for a big file, 400 for anything else. */
function uploadError(err: unknown): AppError {
  if (err instanceof multer.MulterError) {
    const field = err.field ?? 'body';
    switch (err.code) {
      case 'LIMIT_FILE_SIZE':
        return new AppError(413, 'UPLOAD_TOO_LARGE', 'Images may be at most 5 MB', field);
      case 'LIMIT_UNEXPECTED_FILE':
        return validationFailed(field, `${field}: unexpected file`);
      case 'LIMIT_FIELD_VALUE':
        return validationFailed(field, `${field}: too long`);
      default:
        return validationFailed('body', `Form data refused: ${err.message}`);
    }
  }
  // busboy: a malformed body (no boundary, truncated part, bad header).
  return validationFailed('body', 'Form data is malformed');
}

/**
 * Parses a multipart form with at most one image in each of `fields`, in memory (each file is
 * capped at 5 MB, so memory stays bounded) and with small text fields. A request that is not
 * multipart passes through untouched and will miss its files.
 */
export function imageForm(fields: readonly string[]): RequestHandler {
  const parse = multer({
    storage: multer.memoryStorage(),
    limits: {
      fileSize: UPLOAD_MAX_BYTES,
      files: fields.length,
      fields: 20,
      fieldSize: 2048,
      fieldNameSize: 100,
      parts: fields.length + 20,
    },
  }).fields(fields.map((name) => ({ name, maxCount: 1 })));
  return (req, res, next) => {
    parse(req, res, (err?: unknown) => next(err ? uploadError(err) : undefined));
  };
}

/** The file sent in `field`, if any. */
export function fileOf(req: Request, field: string): IncomingFile | undefined {
  const files = req.files as Record<string, Express.Multer.File[] | undefined> | undefined;
  const f = files?.[field]?.[0];
  return f ? { field, buffer: f.buffer } : undefined;
}
