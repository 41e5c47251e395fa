import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import { FormError, encodingUnsupported } from '@server/platform/http/refusals';
import { UPLOAD_MAX_BYTES, type IncomingFile } from './upload.service';

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
    // The multipart parser reads the bytes as they come: a compressed form would be misread as a
    // malformed one, so it is refused for what it is.
    const encoding = req.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') throw encodingUnsupported('identity for a form');
    // Every failure of the parser is about the request; the error handler words it (refusals.ts).
    parse(req, res, (err?: unknown) => next(err ? new FormError(err) : undefined));
  };
}

/** The file sent in `field`, if any. */
export function fileOf(req: Request, field: string): IncomingFile | undefined {
  const files = req.files as Record<string, Express.Multer.File[] | undefined> | undefined;
  const f = files?.[field]?.[0];
  return f ? { field, buffer: f.buffer } : undefined;
}
