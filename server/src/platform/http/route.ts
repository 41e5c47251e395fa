import type { RequestHandler, Router } from 'express';
import type { z } from 'zod';
import type { BinarySpec, FormSpec } from '@shared/contract/endpoint';
import type { ErrorCode } from '@shared/errors';
import type { Guard } from './auth';

/**
 * The one place a route is declared: `serve` (serve.ts) declares each shared endpoint here, and
 * the few routes outside the contract (health, the test clock, this document) call
 * `declare(router, spec, ...handlers)` themselves. It records the spec (the contract of
 * docs/API.md) and mounts the handlers, behind the spec's guard. GET /api/openapi.json is
 * generated from what was declared (openapi.ts), so a route and its description cannot part.
 * Handlers parse their input with the same schema objects the spec names (validate.ts), so the
 * document shows what is checked.
 */

/** An answer: a JSON body's schema, null for none (204), or a body of another media type. */
export type Answer = z.ZodType | null | BinarySpec;

export interface RouteSpec {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Express syntax, under the router's mount point: `/orders/:id`. */
  path: string;
  /** Where the router is mounted; `/api` unless said (health's `/healthz` is at the root). */
  base?: '' | '/api';
  operationId: string;
  summary: string;
  /** The document's group (a tag). */
  tag: string;
  /** Who may call (mounted before the handlers); anyone when left out. */
  auth?: Guard;
  params?: z.ZodObject;
  query?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  /** A multipart body: text fields and file parts. */
  form?: FormSpec;
  /** Money-moving: takes an optional Idempotency-Key. */
  idempotent?: boolean;
  /** Success answers by status (a 503 of /readyz is one too: it has the same shape). */
  responses: Partial<Record<200 | 201 | 204 | 503, Answer>>;
  /** Error codes by status, besides those that follow from the inputs and `auth` (openapi.ts). */
  errors?: Partial<Record<400 | 401 | 403 | 404 | 409 | 422 | 429 | 503, readonly ErrorCode[]>>;
}

/** A declared route: its spec and where it is in the document. */
export interface Declared extends RouteSpec {
  /** The path as the document writes it: `/api/orders/{id}`. */
  documentPath: string;
}

const declared = new Map<string, Declared>();

/**
 * Records `spec` and mounts `handlers` on `router` behind its guard. Routers are built once per
 * app, and tests build many apps: a second declaration of the same operation replaces the first;
 * one operationId for two routes, or two operations on one route, is refused.
 */
export function declare(router: Router, spec: RouteSpec, ...handlers: RequestHandler[]): void {
  const documentPath = (spec.base ?? '/api') + spec.path.replace(/:(\w+)/g, '{$1}');
  for (const other of declared.values()) {
    const sameRoute = other.method === spec.method && other.documentPath === documentPath;
    if (sameRoute !== (other.operationId === spec.operationId))
      throw new Error(`route ${spec.operationId} clashes with ${other.operationId}`);
  }
  declared.set(spec.operationId, { ...spec, documentPath });
  const guard = spec.auth ? [spec.auth] : [];
  const before = isPrivate(spec) ? [noStore] : [];
  router[spec.method](spec.path, ...before, ...guard, ...handlers);
}

/**
 * Whether a route's answers are about who asks, and so may be kept by no cache: every guarded
 * route (its answer depends on the caller: a balance, an identity photo, an operator's queue), and
 * every change (a POST, PUT or DELETE answers about the request that made it: a sign-in's token).
 * Only the public reads (market data, app info, news, the OpenAPI document) keep their caching.
 */
export const isPrivate = (spec: Pick<RouteSpec, 'method' | 'auth'>): boolean =>
  !!spec.auth || spec.method !== 'get';

/**
 * Set before the guard runs, so its refusals (401, 403) and every later error carry it too. A
 * browser's HTTP cache, a shared proxy and the back/forward cache all honour `no-store`; a
 * handler that sets Cache-Control itself would override it, and none does.
 */
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** Every route declared so far, in declaration order. */
export function declaredRoutes(): readonly Declared[] {
  return [...declared.values()];
}
