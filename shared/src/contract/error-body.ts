import { z } from 'zod';
import { errorCodes } from '../errors';
import { text } from './primitives';

/** The one error body of every 4xx and 5xx. */
export const errorDto = z
  .object({
    error: z.object({
      code: z.enum(errorCodes),
      message: text,
      field: text.optional(),
      retryAfterMs: z
        .int()
        .nonnegative()
        .optional()
        .describe('429 and 503 that pass with time: how long to wait (ms); Retry-After in seconds'),
      requestId: text
        .optional()
        .describe("the request's X-Request-Id, as logged (docs/API.md, Conventions)"),
    }),
  })
  .meta({ id: 'Error' });

/** The body of every error answer. */
export type ErrorBody = z.infer<typeof errorDto>;
