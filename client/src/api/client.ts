import {
  fillPath,
  type AnswerOf,
  type BinaryEndpoint,
  type FieldsOf,
  type FileInputOf,
  type FormEndpoint,
  type InputOf,
  type JsonEndpoint,
  type Route,
} from '@shared/contract/endpoint';
/** Base path of the REST API (same origin; seed spec §7). */
export const API_BASE = '/api';
/** Request timeout (seed spec §7 and §9). */
export const REQUEST_TIMEOUT_MS = 60_000;

/**
 * A failed request. `code` is the server's stable error code (shared/src/errors.ts), or one of
 * the client's own: NETWORK (no answer), TIMEOUT (no answer in time), BAD_RESPONSE (an answer
 * that is not the JSON the contract promises). The UI translates `code`, never `message`.
 * `retryAfterMs`: a refusal that passes with time (429 RATE_LIMITED, 503 UNAVAILABLE) says how
 * long to wait, in its body or its Retry-After header.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: string,
    message: string,
    readonly status: number = 0,
    readonly field?: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

let authToken: string | null = null;
const unauthorizedListeners = new Set<() => void>();

/** The session token sent as `Authorization: Bearer …` on every request; null sends none. */
export function setAuthToken(token: string | null): void {
  authToken = token;
}

/**
 * Calls `listener` when a request that carried a token is answered 401: the session is over
 * (expired, ended elsewhere), wherever in the app that request came from. Returns an unsubscribe.
 */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  /** JSON-serialisable, or a FormData sent as multipart (the browser sets its boundary). */
  body?: unknown;
  headers?: Record<string, string>;
  /** 'blob': a 2xx answer is returned as a Blob (a private image); errors are still JSON. */
  responseType?: 'json' | 'blob';
  /** Cancels the request (a page that went away); rejects with the signal's reason. */
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** `/api/market/candles` + `{ product: 'BTCUSDT', before: undefined }` → `…?product=BTCUSDT`. */
export function buildUrl(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.append(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

/** Retry-After in seconds (the only form the server sends) as ms; undefined when absent or odd. */
function retryAfterHeader(value: string | null): number | undefined {
  return value && /^\d{1,6}$/.test(value.trim()) ? Number(value) * 1000 : undefined;
}

function errorFromBody(status: number, body: unknown, retryAfter: string | null = null): ApiError {
  const error = (
    body as {
      error?: { code?: unknown; message?: unknown; field?: unknown; retryAfterMs?: unknown };
    } | null
  )?.error;
  if (error && typeof error.code === 'string') {
    const wait = error.retryAfterMs;
    return new ApiError(
      error.code,
      typeof error.message === 'string' ? error.message : error.code,
      status,
      typeof error.field === 'string' ? error.field : undefined,
      typeof wait === 'number' && Number.isFinite(wait) && wait >= 0
        ? wait
        : retryAfterHeader(retryAfter),
    );
  }
  return new ApiError(status >= 500 ? 'INTERNAL' : 'BAD_RESPONSE', `HTTP ${status}`, status);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return Symbol.for('invalid-json');
  }
}

/**
 * One JSON request. Only 2xx answers succeed; anything else rejects with an ApiError carrying
 * the server's code, message and field. Gives up after `timeoutMs` (60 s by default).
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', query, body, headers = {}, signal, timeoutMs, responseType } = options;
  const form = body instanceof FormData;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort);

  // Read once: the answer is judged against the token this request actually carried.
  const token = authToken;
  try {
    let response: Response;
    try {
      response = await fetch(buildUrl(path, query), {
        method,
        headers: {
          Accept: 'application/json',
          ...(body === undefined || form ? {} : { 'Content-Type': 'application/json' }),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
        signal: controller.signal,
      });
    } catch (err) {
      if (timedOut) throw new ApiError('TIMEOUT', 'request timed out');
      if (signal?.aborted) throw signal.reason;
      throw new ApiError('NETWORK', err instanceof Error ? err.message : 'network error');
    }
    if (responseType === 'blob' && response.ok) return (await response.blob()) as T;
    const parsed = parseJson(await response.text());
    // A token that was replaced meanwhile (a new login) is not the session that ended.
    if (response.status === 401 && token && token === authToken) {
      for (const listener of unauthorizedListeners) listener();
    }
    if (response.status < 200 || response.status > 299)
      throw errorFromBody(response.status, parsed, response.headers.get('Retry-After'));
    if (parsed === Symbol.for('invalid-json')) {
      throw new ApiError('BAD_RESPONSE', 'answer is not JSON', response.status);
    }
    return parsed as T;
  } catch (err) {
    // The body may still be streaming when the timer fires.
    if (timedOut && !(err instanceof ApiError)) throw new ApiError('TIMEOUT', 'request timed out');
    throw err;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

export interface UploadOptions {
  signal?: AbortSignal;
  /** Sent as Idempotency-Key when the endpoint takes one. */
  idempotencyKey?: string;
  /** Called as the body goes out: bytes sent and the total (0 when the browser cannot tell). */
  onProgress?: (sent: number, total: number) => void;
  timeoutMs?: number;
}

/**
 * A form's text fields and files as multipart: each field that has a value as its text, each file
 * under its part's name with a file name of its type (the server sniffs the bytes, people read
 * the name).
 */
function formData(
  fields: Record<string, string | number | boolean | null | undefined>,
  files: Record<string, Blob | Blob[] | undefined>,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null && value !== '') form.append(name, String(value));
  }
  for (const [name, file] of Object.entries(files)) {
    for (const blob of file === undefined ? [] : [file].flat())
      form.append(name, blob, fileName(name, blob));
  }
  return form;
}

/** A file name with the right extension: `screenshot` + a PNG → `screenshot.png`. */
function fileName(base: string, blob: Blob): string {
  const ext = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' }[blob.type];
  return `${base}.${ext ?? 'bin'}`;
}

/**
 * Sends a form endpoint's fields and files (shared/src/<feature>/routes.ts) as multipart, with
 * upload progress, the answer typed by the endpoint's success schema. fetch reports no progress,
 * so this one call uses XMLHttpRequest; answers, errors, the token and a 401 are treated exactly
 * as by `request`.
 */
export function upload<E extends FormEndpoint>(
  endpoint: Route<E>,
  fields: FieldsOf<E>,
  files: FileInputOf<E, Blob>,
  options: UploadOptions = {},
): Promise<AnswerOf<E>> {
  const { idempotencyKey, ...rest } = options;
  const headers: Record<string, string> =
    endpoint.idempotent && idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {};
  // A form's fields are text on the wire: what the schema takes as a number goes as its digits.
  const form = formData(fields as Record<string, string | number | undefined>, files);
  const method = endpoint.method.toUpperCase();
  return sendForm(method, endpoint.path, form, { ...rest, headers }) as Promise<AnswerOf<E>>;
}

/** Sends a multipart form with XMLHttpRequest, reporting progress (`upload`). */
function sendForm(
  method: string,
  path: string,
  form: FormData,
  options: Omit<UploadOptions, 'idempotencyKey'> & { headers: Record<string, string> },
): Promise<unknown> {
  const { headers, signal, onProgress, timeoutMs = REQUEST_TIMEOUT_MS } = options;
  const token = authToken;
  return new Promise<unknown>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.open(method, buildUrl(path));
    xhr.timeout = timeoutMs;
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) =>
      onProgress?.(event.loaded, event.lengthComputable ? event.total : 0);
    xhr.onload = () => {
      done();
      const parsed = parseJson(xhr.responseText);
      if (xhr.status === 401 && token && token === authToken) {
        for (const listener of unauthorizedListeners) listener();
      }
      if (xhr.status < 200 || xhr.status > 299)
        reject(errorFromBody(xhr.status, parsed, xhr.getResponseHeader('Retry-After')));
      else if (parsed === Symbol.for('invalid-json'))
        reject(new ApiError('BAD_RESPONSE', 'answer is not JSON', xhr.status));
      else resolve(parsed);
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError('NETWORK', 'network error'));
    };
    xhr.ontimeout = () => {
      done();
      reject(new ApiError('TIMEOUT', 'request timed out'));
    };
    xhr.onabort = () => {
      done();
      reject((signal?.reason as Error | undefined) ?? new DOMException('aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort);
    xhr.send(form);
  });
}

/** True when `err` is the cancellation of a request the caller no longer wants. */
export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

/**
 * Calls an endpoint by its route (shared/src/<feature>/routes.ts): the path filled from `params`,
 * the query and JSON body as the endpoint takes them, and the answer typed by the endpoint's
 * success schema, so a screen that reads a field an endpoint no longer answers does not compile.
 * A form endpoint is sent with `upload`, an image fetched with `download`.
 */
export function call<E extends JsonEndpoint>(
  endpoint: Route<E>,
  input: InputOf<E>,
  { signal, idempotencyKey }: { signal?: AbortSignal; idempotencyKey?: string } = {},
): Promise<AnswerOf<E>> {
  const { params, query, body } = input as {
    params?: Record<string, string | number>;
    query?: Query;
    body?: unknown;
  };
  return request<AnswerOf<E>>(fillPath(endpoint.path, params), {
    method: endpoint.method.toUpperCase() as RequestOptions['method'],
    query,
    body,
    signal,
    headers: endpoint.idempotent && idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
  });
}

/** Fetches a binary endpoint's bytes (a private image) as a Blob, with the token; errors as JSON. */
export function download<E extends BinaryEndpoint>(
  endpoint: Route<E>,
  input: InputOf<E>,
  { signal }: { signal?: AbortSignal } = {},
): Promise<Blob> {
  const { params } = input as { params?: Record<string, string | number> };
  return request<Blob>(fillPath(endpoint.path, params), { signal, responseType: 'blob' });
}
