import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { validationFailed } from './errors';

type Source = 'body' | 'query' | 'params';

/** Turns the first zod issue into a 400 VALIDATION_FAILED naming the field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : 'body';
  throw validationFailed(field, `${field}: ${issue?.message ?? 'invalid'}`);
}

/**
 * Middleware: parses `req[source]` and stores the result in `res.locals[source]` (Express 5 makes
 * `req.query` read-only, so parsed values live on `res.locals`).
 */
export function validate<S extends z.ZodType>(source: Source, schema: S): RequestHandler {
  return (req, res, next) => {
    res.locals[source] = parseOrThrow(schema, req[source]);
    next();
  };
}
