import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import type { AnswerOf, EndpointSpec, ParsedOf } from '@shared/contract/endpoint';
import type { Guard } from './auth';
import { declare } from './route';
import { parseOrThrow } from './validate';

/** An answer with another status than the endpoint's first success (an idempotent replay's). */
export class Reply<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

/**
 * The handler answered itself: a public read sends the bytes its shared cache serialized from the
 * typed answer once for every caller (read-cache.ts), which no per-request check could afford.
 */
export const sent = Symbol('sent');

export type Handler<E extends EndpointSpec> = (
  input: ParsedOf<E>,
  http: { req: Request; res: Response },
) => Promise<AnswerOf<E> | Reply<AnswerOf<E>> | typeof sent>;

let checking = true;

/**
 * Answers are checked against the endpoint's schema outside production (tests, development): a
 * handler that answers what the contract does not say fails its request with a 500 naming the
 * endpoint, so the tests find it. Production sends what the types allowed, unchecked; the api app
 * says which it is (app.ts, from NODE_ENV).
 */
export function checkAnswers(on: boolean): void {
  checking = on;
}

/**
 * Mounts endpoint `e` (shared/src/*.endpoints.ts) on `router` behind `guard`, which must be for
 * the endpoint's caller: the handler is given the params, query and body parsed once by the
 * endpoint's schemas (400 VALIDATION_FAILED naming the field otherwise), and its answer is typed
 * by the endpoint's success schema and sent with that status.
 */
export function serve<E extends EndpointSpec>(
  router: Router,
  e: E,
  guard: Guard | undefined,
  handler: Handler<E>,
): void {
  if (guard?.who !== e.caller)
    throw new Error(`${e.operationId}: a guard for ${guard?.who ?? 'anyone'}, not ${e.caller}`);
  const [status, schema] = Object.entries(e.responses)[0] as [string, z.ZodType | null];
  const { caller: _, ...spec } = e;
  declare(router, { ...spec, auth: guard }, async (req, res) => {
    const input = {
      ...(e.params && { params: parseOrThrow(e.params, req.params) }),
      ...(e.query && { query: parseOrThrow(e.query, req.query) }),
      ...(e.body && { body: parseOrThrow(e.body, req.body) }),
    } as ParsedOf<E>;
    const answer = await handler(input, { req, res });
    if (answer === sent) return;
    const reply = answer instanceof Reply ? answer : new Reply(Number(status), answer);
    if (schema === null) {
      res.status(reply.status).end();
      return;
    }
    if (checking) {
      const checked = schema.safeParse(reply.body);
      if (!checked.success)
        throw new Error(`${e.operationId} answered outside its contract: ${checked.error.message}`);
    }
    res.status(reply.status).json(reply.body);
  });
}
