import type { z } from 'zod';
import { validationFailed } from './errors';

/** Turns the first zod issue into a 400 VALIDATION_FAILED naming the field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : 'body';
  throw validationFailed(field, `${field}: ${issue?.message ?? 'invalid'}`);
}
