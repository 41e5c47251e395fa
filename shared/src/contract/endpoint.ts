import type { z } from 'zod';
import type { ErrorCode } from '../errors';

/**
 * An endpoint declared once: method, path, inputs and answers as zod schemas, its error codes and
 * who may call. The server mounts it (`serve`, platform/http/serve.ts) with a handler whose inputs
 * are parsed by these schemas and whose answer is typed by them; the OpenAPI document and the
 * endpoint tables of docs/API.md are generated from it; the clients call it by its route
 * (`route` below, zod-free, so a phone's first screen does not load zod) and `call` (JSON),
 * `upload` (a multipart form) or `download` (bytes).
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
  /** A multipart/form-data body instead: text fields and file parts. */
  form?: FormSpec;
  /** Money-moving: takes an optional Idempotency-Key. */
  idempotent?: boolean;
  /** Success answers by status: a JSON body's schema, null for none (204), or bytes. */
  responses: Partial<Record<200 | 201 | 204, z.ZodType | null | BinarySpec>>;
  /** Error codes by status, besides those that follow from the inputs and the caller. */
  errors?: Partial<Record<400 | 401 | 403 | 404 | 409 | 422 | 429 | 503, readonly ErrorCode[]>>;
}

/**
 * A file part of a multipart body. The server refuses more files than `count`, a file over
 * `maxBytes` (413 UPLOAD_TOO_LARGE) and one whose bytes are not of an `accept`ed type (400
 * UPLOAD_INVALID: the bytes decide, never the name or the declared type).
 */
export interface FilePart {
  name: string;
  /** At most this many files; 1 is one file, more a list. */
  count: number;
  /**
   * The client must send it. A part that is needed only sometimes (a bank deposit's screenshot)
   * is not; the handler's rule refuses its absence, naming the part.
   */
  required?: boolean;
  accept: readonly string[];
  maxBytes: number;
}

/** A multipart/form-data body: its text fields as one zod object, and its file parts. */
export interface FormSpec {
  fields: z.ZodType;
  files: readonly FilePart[];
}

/** An answer of bytes (an image), not JSON: its media type, `image/*` for any image. */
export interface BinarySpec {
  media: string;
  description: string;
}

/** A binary answer as a handler gives it: the bytes, their media type and a file name. */
export interface FileBody {
  bytes: Uint8Array;
  type: string;
  name: string;
}

/** Declares an endpoint, keeping every literal (method, path, schemas) in its type. */
export const endpoint = <const E extends EndpointSpec>(spec: E): E => spec;

/** One part's files: one file, or a list when it takes more. */
type FilesIn<P extends FilePart, File> = P extends { count: 1 } ? File : File[];

/**
 * A form's files by part name. A client must send the required parts; a handler is promised none
 * (any request may leave a part out), so its own rule words each absence.
 */
type FilesOf<
  Parts extends readonly FilePart[],
  File,
  Side extends 'input' | 'output',
> = Side extends 'input'
  ? {
      [P in Parts[number] as P extends { required: true } ? P['name'] : never]: FilesIn<P, File>;
    } & {
      [P in Parts[number] as P extends { required: true } ? never : P['name']]?: FilesIn<P, File>;
    }
  : { [P in Parts[number] as P['name']]?: FilesIn<P, File> };

type FormParts<E extends EndpointSpec, Side extends 'input' | 'output', File> = E extends {
  form: infer F extends FormSpec;
}
  ? {
      fields: Side extends 'input' ? z.input<F['fields']> : z.output<F['fields']>;
      files: FilesOf<F['files'], File, Side>;
    }
  : unknown;

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

/**
 * What a client sends: params, query and body as the schemas take them (defaults optional); a
 * form's fields likewise and its files as `File` (a browser's Blob).
 */
export type InputOf<E extends EndpointSpec, File = never> = Parts<E, 'input'> &
  FormParts<E, 'input', File>;
/** What a handler is given: the same, parsed (defaults filled, strings coerced). */
export type ParsedOf<E extends EndpointSpec, File = never> = Parts<E, 'output'> &
  FormParts<E, 'output', File>;
/** A form's text fields as a client sends them. */
export type FieldsOf<E extends FormEndpoint> = z.input<E['form']['fields']>;
/** A form's files as a client sends them (`File`: a browser's Blob). */
export type FileInputOf<E extends FormEndpoint, File> = FilesOf<E['form']['files'], File, 'input'>;

/** The success answer's body: a JSON answer's type, a binary one's FileBody, void for a 204. */
export type AnswerOf<E extends EndpointSpec> = {
  [S in keyof E['responses']]: E['responses'][S] extends z.ZodType
    ? z.output<E['responses'][S]>
    : E['responses'][S] extends BinarySpec
      ? FileBody
      : void;
}[keyof E['responses']];

/** An endpoint with a JSON body or none, answering JSON or nothing: what `call` takes. */
export type JsonEndpoint = EndpointSpec & {
  form?: undefined;
  responses: Partial<Record<200 | 201 | 204, z.ZodType | null>>;
};
/** An endpoint taking a multipart form: what `upload` takes. */
export type FormEndpoint = EndpointSpec & { form: FormSpec };
/** An endpoint answering bytes: what `download` takes. */
export type BinaryEndpoint = EndpointSpec & { form?: undefined; responses: { 200: BinarySpec } };

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
