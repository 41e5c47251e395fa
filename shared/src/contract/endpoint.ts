import type { z } from 'zod';
import type { ErrorCode } from '../errors';

/**
 * An endpoint declared once: method, path, inputs and answers as zod schemas, its error codes and
 * who may call. The server mounts it (`serve`, platform/http/serve.ts) with a handler whose inputs
 * are parsed by these schemas and whose answer is typed by them; the OpenAPI document and the
 * endpoint tables of docs/API.md are generated from it; the clients call it by its route
 * (`route` below, zod-free, so a phone's first screen does not load zod) and `call`.
 */
export interface EndpointSpec {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Express syntax, under /api: `/orders/:id`. */
  path: string;
  operationId: string;
  summary: string;
  /** The document's group (a tag). */
  tag: string;
  /** Who may call; anyone when left out. */
  caller?: 'user' | 'operator' | 'userOrOperator';
  params?: z.ZodObject;
  query?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  /** Money-moving: takes an optional Idempotency-Key. */
  idempotent?: boolean;
  /** Success answers by status: a JSON body's schema, or null for none (204). */
  responses: Partial<Record<200 | 201 | 204, z.ZodType | null>>;
  /** Error codes by status, besides those that follow from the inputs and the caller. */
  errors?: Partial<Record<400 | 401 | 403 | 404 | 409 | 422 | 429 | 503, readonly ErrorCode[]>>;
}

/** Declares an endpoint, keeping every literal (method, path, schemas) in its type. */
export const endpoint = <const E extends EndpointSpec>(spec: E): E => spec;

type Parts<E extends EndpointSpec, Side extends 'input' | 'output'> = (E extends {
  params: infer S extends z.ZodType;
}
  ? { params: Side extends 'input' ? z.input<S> : z.output<S> }
  : unknown) &
  (E extends { query: infer S extends z.ZodType }
    ? { query: Side extends 'input' ? z.input<S> : z.output<S> }
    : unknown) &
  (E extends { body: infer S extends z.ZodType }
    ? { body: Side extends 'input' ? z.input<S> : z.output<S> }
    : unknown);

/** What a client sends: params, query and body as the schemas take them (defaults optional). */
export type InputOf<E extends EndpointSpec> = Parts<E, 'input'>;
/** What a handler is given: the same, parsed (defaults filled, strings coerced). */
export type ParsedOf<E extends EndpointSpec> = Parts<E, 'output'>;

/** The success answer's body (void for a 204). */
export type AnswerOf<E extends EndpointSpec> = {
  [S in keyof E['responses']]: E['responses'][S] extends z.ZodType
    ? z.output<E['responses'][S]>
    : void;
}[keyof E['responses']];

/**
 * What a client needs of an endpoint at run time: its method, path and whether it takes an
 * Idempotency-Key; its types come from the endpoint by `import type`, so no zod is loaded.
 */
export interface Route<E extends EndpointSpec> {
  method: E['method'];
  path: E['path'];
  idempotent: boolean;
  /** Types only: never set. */
  readonly endpoint?: E;
}

/**
 * An endpoint's route for the clients: `route<typeof orders.placeOrder>('post', '/orders', true)`
 * fails to compile when the method, the path or the idempotency differs from the endpoint's.
 */
export const route = <E extends EndpointSpec>(
  method: E['method'],
  path: E['path'],
  ...idempotent: E extends { idempotent: true } ? [true] : []
): Route<E> => ({ method, path, idempotent: (idempotent as boolean[]).includes(true) });

/** `/orders/:id` with `{ id: '7' }` → `/orders/7` (each value URI-encoded). */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path}: no ${name}`);
    return encodeURIComponent(String(value));
  });
}
