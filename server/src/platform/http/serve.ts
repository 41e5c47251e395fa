import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import type {
  AnswerOf,
  BinarySpec,
  EndpointSpec,
  FileBody,
  ParsedOf,
} from '@shared/contract/endpoint';
import type { Guard } from './auth';
import { multipartForm, receivedFiles, type ReceivedFile } from './multipart';
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
  input: ParsedOf<E, ReceivedFile>,
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

/** The inputs of a request, each parsed by the endpoint's schema; a form's files by part. */
function inputOf<E extends EndpointSpec>(e: E, req: Request): ParsedOf<E, ReceivedFile> {
  return {
    ...(e.params && { params: parseOrThrow(e.params, req.params) }),
    ...(e.query && { query: parseOrThrow(e.query, req.query) }),
    ...(e.body && { body: parseOrThrow(e.body, req.body) }),
    ...(e.form && {
      fields: parseOrThrow(e.form.fields, req.body),
      files: receivedFiles(req, e.form.files),
    }),
  } as ParsedOf<E, ReceivedFile>;
}

/** `image/*` takes `image/png`; any other media type only itself. */
const mediaTakes = (declared: string, type: string) =>
  declared.endsWith('/*') ? type.startsWith(declared.slice(0, -1)) : type === declared;

function sendBytes(e: EndpointSpec, spec: BinarySpec, reply: Reply<unknown>, res: Response) {
  const file = reply.body as FileBody;
  if (checking && !mediaTakes(spec.media, file.type))
    throw new Error(`${e.operationId} answered ${file.type}, not ${spec.media}`);
  // The type is the handler's (from the stored bytes) and nosniff stops a browser guessing
  // another one; a guarded endpoint's answer also carries `Cache-Control: no-store` (route.ts).
  res.set({
    'Content-Type': file.type,
    'X-Content-Type-Options': 'nosniff',
    'Content-Disposition': `inline; filename="${file.name}"`,
  });
  res
    .status(reply.status)
    .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.length));
}

function sendJson(e: EndpointSpec, schema: z.ZodType, reply: Reply<unknown>, res: Response) {
  if (checking) {
    const checked = schema.safeParse(reply.body);
    if (!checked.success)
      throw new Error(`${e.operationId} answered outside its contract: ${checked.error.message}`);
  }
  res.status(reply.status).json(reply.body);
}

/**
 * Mounts endpoint `e` (shared/src/<feature>/endpoints.ts) on `router` behind `guard`, which must
 * be for the endpoint's caller: the handler is given the params, query and body parsed once by
 * the endpoint's schemas (400 VALIDATION_FAILED naming the field otherwise), or a form's fields
 * so parsed and its files (multipart.ts: the declared parts, counts and sizes; the guard runs
 * first, so an anonymous upload costs nothing). Its answer is typed by the endpoint's success
 * schema and sent with that status: JSON, or bytes of the declared media type.
 */
export function serve<E extends EndpointSpec>(
  router: Router,
  e: E,
  guard: Guard | undefined,
  handler: Handler<E>,
): void {
  if (guard?.who !== e.caller)
    throw new Error(`${e.operationId}: a guard for ${guard?.who ?? 'anyone'}, not ${e.caller}`);
  const [status, schema] = Object.entries(e.responses)[0] as [
    string,
    EndpointSpec['responses'][200],
  ];
  const { caller: _, ...spec } = e;
  const form = e.form ? [multipartForm(e.form.files)] : [];
  declare(router, { ...spec, auth: guard }, ...form, async (req, res) => {
    const answer = await handler(inputOf(e, req), { req, res });
    if (answer === sent) return;
    const reply = answer instanceof Reply ? answer : new Reply(Number(status), answer);
    if (!schema) res.status(reply.status).end();
    else if ('media' in schema) sendBytes(e, schema, reply, res);
    else sendJson(e, schema, reply, res);
  });
}
