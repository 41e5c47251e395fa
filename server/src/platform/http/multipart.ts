import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import type { FilePart } from '@shared/contract/endpoint';
import { FormError, encodingUnsupported } from './refusals';

/** A file part as the multipart parser hands it over; its name and declared type are ignored. */
export interface ReceivedFile {
  field: string;
  buffer: Buffer;
}

/**
 * Parses a multipart form with the file parts an endpoint declares (at most `count` files in
 * each, none over the largest `maxBytes`), in memory (so memory stays bounded by those limits),
 * and small text fields. A request that is not multipart passes through untouched and will miss
 * its files. Whether a file's bytes are of an accepted type is the upload service's check: it
 * reads them.
 */
export function multipartForm(parts: readonly FilePart[]): RequestHandler {
  const files = parts.reduce((n, p) => n + p.count, 0);
  const parse = multer({
    storage: multer.memoryStorage(),
    limits: {
      fileSize: Math.max(...parts.map((p) => p.maxBytes)),
      files,
      fields: 20,
      fieldSize: 2048,
      fieldNameSize: 100,
      parts: files + 20,
    },
  }).fields(parts.map((p) => ({ name: p.name, maxCount: p.count })));
  return (req, res, next) => {
    // The multipart parser reads the bytes as they come: a compressed form would be misread as a
    // malformed one, so it is refused for what it is.
    const encoding = req.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') throw encodingUnsupported('identity for a form');
    // Every failure of the parser is about the request; the error handler words it (refusals.ts).
    parse(req, res, (err?: unknown) => next(err ? new FormError(err) : undefined));
  };
}

/** The files sent, by part: one file (or none) for a part of count 1, else a list. */
export function receivedFiles(
  req: Request,
  parts: readonly FilePart[],
): Record<string, ReceivedFile | ReceivedFile[] | undefined> {
  const sent = req.files as Record<string, Express.Multer.File[] | undefined> | undefined;
  return Object.fromEntries(
    parts.map(({ name, count }) => {
      const list = (sent?.[name] ?? []).map((f) => ({ field: name, buffer: f.buffer }));
      return [name, count === 1 ? list[0] : list];
    }),
  );
}
