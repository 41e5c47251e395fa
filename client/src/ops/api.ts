import {
  fillPath,
  type AnswerOf,
  type EndpointSpec,
  type InputOf,
  type Route,
} from '@shared/contract/endpoint';
import { upload as uploadRoute } from '@shared/uploads/routes';

/**
 * The console's own small API client: the operator's bearer token from sessionStorage (one tab,
 * gone when it closes), JSON in and out, and any 401 ends the console's session.
 */
const KEY = 'ops.session';

export interface OpsSession {
  token: string;
  name: string;
  expiresAt: number;
}

export class OpsError extends Error {
  override readonly name = 'OpsError';
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    /** The request field a 400 is about (VALIDATION_FAILED), when the server names one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

const listeners = new Set<() => void>();

export function readSession(): OpsSession | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as OpsSession) : null;
  } catch {
    return null;
  }
}

export function writeSession(session: OpsSession | null): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

/** Called whenever the session is written (sign in, sign out, a 401). */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const authHeader = (): Record<string, string> => {
  const token = readSession()?.token;
  return token ? { Authorization: `Bearer ${token}` } : {};
};

async function send(path: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`/api${path}`, init);
  } catch {
    throw new OpsError('NETWORK', 'no answer', 0);
  }
  if (res.ok) return res;
  const body = (await res.json().catch(() => null)) as {
    error?: { code?: string; message?: string; field?: string };
  } | null;
  // A token that no longer works (expired, signed out elsewhere): back to the sign-in form.
  if (res.status === 401 && readSession()) writeSession(null);
  throw new OpsError(
    body?.error?.code ?? `HTTP_${res.status}`,
    body?.error?.message ?? `HTTP ${res.status}`,
    res.status,
    body?.error?.field,
  );
}

export async function api<T>(
  path: string,
  { method = 'GET', body }: { method?: string; body?: unknown } = {},
): Promise<T> {
  const res = await send(path, {
    method,
    headers: {
      ...authHeader(),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** A private image (a transfer screenshot, an ID photo) as a blob, with the bearer token. */
export async function fetchImage(id: string, signal: AbortSignal): Promise<Blob> {
  const res = await send(fillPath(uploadRoute.path, { id }), { headers: authHeader(), signal });
  return res.blob();
}

/** `{ a: 1, b: undefined }` → `?a=1`. */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== '') search.set(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
}

/**
 * Calls an endpoint by its route (shared/src/<feature>/routes.ts) with the operator's token: the path
 * filled from `params`, the query and JSON body as the endpoint takes them, and the answer typed
 * by the endpoint's success schema, so a console page that reads a field an endpoint no longer
 * answers does not compile.
 */
export function call<E extends EndpointSpec>(
  endpoint: Route<E>,
  input: InputOf<E>,
): Promise<AnswerOf<E>> {
  const {
    params,
    query: search,
    body,
  } = input as {
    params?: Record<string, string | number>;
    query?: Record<string, string | number | undefined>;
    body?: unknown;
  };
  return api<AnswerOf<E>>(`${fillPath(endpoint.path, params)}${search ? query(search) : ''}`, {
    method: endpoint.method.toUpperCase(),
    body,
  });
}
