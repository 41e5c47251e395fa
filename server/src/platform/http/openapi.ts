import { operatorRoles, roleAreas, type OperatorArea } from './operator-gate';
import { Router } from 'express';
import { z } from 'zod';
import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { errorDto } from '@shared/contract/answers';
import type { FilePart, FormSpec } from '@shared/contract/endpoint';
import type { ErrorCode } from '@shared/errors';
import type { Caller } from './auth';
import { declare, declaredRoutes, type Answer, type Declared } from './route';

/**
 * GET /api/openapi.json: the contract (shared API.md and docs/API.md) as OpenAPI 3.1, generated
 * by zod-to-openapi from the routes declared with `declare` (route.ts): requests by the zod
 * schemas the routes parse with, answers by the shapes of shared/src/contract/answers.ts. The errors that
 * follow from a route's inputs and guard are added here, so no route lists them.
 */

const errorContent = { 'application/json': { schema: errorDto } };
const ref = (name: string, kind: string) => ({ $ref: `#/components/${kind}/${name}` });

function success(status: number, answer: Answer): ResponseConfig {
  const description = status === 201 ? 'Created' : status === 503 ? 'A check failed (false)' : 'OK';
  if (answer === null) return { description: 'Done, no body' };
  if ('media' in answer)
    return {
      description: answer.description,
      content: { [answer.media]: { schema: { type: 'string', contentMediaType: answer.media } } },
    };
  return { description, content: { 'application/json': { schema: answer } } };
}

/** Whether path params' schema can refuse a value: plain strings (an upload's id) cannot. */
const refuses = (params: z.ZodObject | undefined) =>
  !!params &&
  Object.values(params.shape).some((s) => !(s instanceof z.ZodString) || !!s.def.checks?.length);

/** The error codes by status of a route: its own and those its inputs and guard imply. */
export function errorCodesOf(route: Declared): Map<number, Set<ErrorCode>> {
  const codes = new Map<number, Set<ErrorCode>>();
  const add = (status: number, code: ErrorCode) =>
    codes.set(status, (codes.get(status) ?? new Set()).add(code));
  const caller = route.auth?.who;
  if (refuses(route.params) || route.query || route.body || route.form)
    add(400, 'VALIDATION_FAILED');
  if (route.form) add(400, 'UPLOAD_INVALID');
  if (route.form) add(400, 'UPLOAD_TOO_MANY_PIXELS');
  if (route.form) add(413, 'UPLOAD_TOO_LARGE');
  // The JSON parser's refusals (refusals.ts): over 64 kB; a charset or Content-Encoding it lacks.
  if (route.body) add(413, 'PAYLOAD_TOO_LARGE');
  if (route.body) add(415, 'UNSUPPORTED_MEDIA_TYPE');
  if (caller) add(401, 'UNAUTHENTICATED');
  if (caller === 'operator') add(403, 'FORBIDDEN');
  // A frozen account's session may read, not act (auth.ts requireUser).
  if (
    caller === 'user' &&
    route.method !== 'get' &&
    (route.auth as { refusesFrozen?: boolean }).refusesFrozen
  )
    add(403, 'ACCOUNT_FROZEN');
  if (route.idempotent) add(422, 'IDEMPOTENCY_MISMATCH');
  for (const [status, list = []] of Object.entries(route.errors ?? {}))
    list.forEach((code) => add(Number(status), code));
  return codes;
}

/** The error answers by status, each naming its codes. */
function errors(route: Declared): Record<number, ResponseConfig> {
  const answer = (set: Set<ErrorCode>) => ({
    description: [...set].join(', '),
    content: errorContent,
  });
  return Object.fromEntries([...errorCodesOf(route)].map(([status, set]) => [status, answer(set)]));
}

const security: Record<Caller, Record<string, string[]>[]> = {
  user: [{ bearer: [] }],
  operator: [{ operator: [] }],
  userOrOperator: [{ bearer: [] }, { operator: [] }],
};

const typeNames: Record<string, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
};

/** "JPEG, PNG or WebP, at most 5 MB": what a file part takes. */
export function partTakes(part: FilePart): string {
  const types = part.accept.map((t) => typeNames[t] ?? t);
  const last = types.pop();
  const list = types.length ? `${types.join(', ')} or ${last}` : last;
  return `${list}, at most ${Math.round(part.maxBytes / 1024 / 1024)} MB`;
}

/** A file part: one file (a string of bytes of the accepted types), or a list of at most `count`. */
function filePart(part: FilePart): z.ZodType {
  const media = part.accept.length === 1 ? part.accept[0]! : `${part.accept[0]!.split('/')[0]}/*`;
  const file = z.string().meta({ contentMediaType: media, description: partTakes(part) });
  const one = part.count === 1 ? file : z.array(file).max(part.count);
  return part.required ? one : one.optional();
}

/** A multipart body: the text fields and the file parts, each file part's types named. */
function formBody(form: FormSpec) {
  const files = z.object(Object.fromEntries(form.files.map((p) => [p.name, filePart(p)])));
  const encoding = Object.fromEntries(
    form.files.map((p) => [p.name, { contentType: p.accept.join(', ') }]),
  );
  return {
    required: true,
    content: {
      'multipart/form-data': { schema: z.intersection(form.fields, files), encoding },
    },
  };
}

function requestOf(route: Declared): RouteConfig['request'] {
  // A path parameter that no schema describes is a string.
  const names = [...route.documentPath.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
  const params =
    route.params ??
    (names.length ? z.object(Object.fromEntries(names.map((n) => [n, z.string()]))) : undefined);
  const body = route.body
    ? { required: true, content: { 'application/json': { schema: route.body } } }
    : route.form && formBody(route.form);
  return { params, query: route.query as z.ZodObject | undefined, body };
}

/** The console areas an operator route belongs to (operator-gate.ts), if it is one. */
export const areasOf = (route: Declared) =>
  (route.auth as { areas?: readonly OperatorArea[] } | undefined)?.areas;

export const rolesReaching = (areas: readonly OperatorArea[]) =>
  operatorRoles.filter((role) => areas.some((a) => roleAreas[role].includes(a)));

function operation(route: Declared): RouteConfig {
  const caller = route.auth?.who;
  return {
    method: route.method,
    path: route.documentPath,
    operationId: route.operationId,
    summary: route.summary,
    ...(areasOf(route) && {
      description: `Operator roles: ${rolesReaching(areasOf(route)!).join(', ')}, and the service token.`,
    }),
    tags: [route.tag],
    ...(caller && { security: security[caller] }),
    ...(route.idempotent && { parameters: [ref('IdempotencyKey', 'parameters')] }),
    request: requestOf(route),
    responses: {
      ...Object.fromEntries(
        Object.entries(route.responses).map(([status, answer]) => [
          status,
          success(Number(status), answer),
        ]),
      ),
      ...errors(route),
      default: ref('Error', 'responses'),
    },
  };
}

function build(routes: readonly Declared[]) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('responses', 'Error', {
    description: 'An error (500: INTERNAL)',
    content: { 'application/json': { schema: ref('Error', 'schemas') } },
  });
  registry.registerComponent('parameters', 'IdempotencyKey', {
    name: 'Idempotency-Key',
    in: 'header',
    description: 'A repeat with the same body replays the first answer; another body: 422',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  });
  const bearer = (description: string) => ({
    type: 'http' as const,
    scheme: 'bearer',
    description,
  });
  registry.registerComponent(
    'securitySchemes',
    'bearer',
    bearer('A user session token, from POST /api/auth/login'),
  );
  registry.registerComponent(
    'securitySchemes',
    'operator',
    bearer(
      "A named operator's session token (POST /api/ops/session), or the server's OPERATOR_TOKEN (the service token)",
    ),
  );
  for (const route of routes) registry.registerPath(operation(route));
  const generator = new OpenApiGeneratorV31([errorDto, ...registry.definitions]);
  // No webhooks: the generator writes an empty list of them.
  const { webhooks: _, ...doc } = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Trade API',
      version: '1',
      description:
        'Money: integers in minor units (1050 is 10.50). Prices and rates: decimal strings. ' +
        'Times: epoch milliseconds. Lists: `limit` (default 20, at most 100) and `cursor`.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
  });
  return doc;
}

type Generated = ReturnType<typeof build>;
type Components = NonNullable<Generated['components']>;
/** The document, with the parts it always has. */
export type OpenApiDocument = Generated &
  Required<Pick<Generated, 'paths'>> & {
    components: Required<Pick<Components, 'schemas' | 'securitySchemes'>>;
  };
let built: { routes: number; doc: OpenApiDocument } | undefined;

/** The OpenAPI 3.1 description of every route declared so far (built again when one is added). */
export function openApiDocument(): OpenApiDocument {
  const routes = declaredRoutes();
  if (built?.routes !== routes.length)
    built = { routes: routes.length, doc: build(routes) as OpenApiDocument };
  return built.doc;
}

/**
 * GET /openapi.json (mounted under /api, after the routes it describes): the document, to anyone,
 * cacheable for 5 minutes.
 */
export function openApiRoutes(): Router {
  const r = Router();
  declare(
    r,
    {
      method: 'get',
      path: '/openapi.json',
      operationId: 'openApi',
      summary: 'This document',
      tag: 'Service',
      responses: { 200: z.looseObject({ openapi: z.literal('3.1.0') }) },
    },
    (_req, res) => {
      res.set('Cache-Control', 'public, max-age=300').type('json').send(body);
    },
  );
  // Built here, after the routes are declared, so a schema zod cannot convert fails the start
  // rather than a request.
  const body = JSON.stringify(openApiDocument());
  return r;
}
