import type { Logger } from '@infra/logger';
import type { Metrics } from '@server/platform/metrics';

/** How a gateway, which has no database, leans on the api: its reachability and token checks. */

/**
 * Whether the gateway can reach the api that checks its socket tokens: probed every `everyMs`
 * (`/healthz`) and told by every token check. Logged on each change, exported as
 * `gateway_api_reachable`, and shown by `/readyz` (without failing it: market data needs no api).
 */
export function watchApi(
  apiUrl: string,
  log: Logger,
  metrics?: Pick<Metrics, 'apiReachable'>,
  everyMs = 2000,
) {
  let reachable = true;
  metrics?.apiReachable.set(1);
  const mark = (ok: boolean, why?: string) => {
    if (ok === reachable) return;
    reachable = ok;
    metrics?.apiReachable.set(ok ? 1 : 0);
    if (ok) log.info({ apiUrl }, 'api reachable again: socket tokens are checked');
    else
      log.warn(
        { apiUrl, why },
        'api unreachable: signed-in sockets are refused UNAVAILABLE (retryable) until it is back',
      );
  };
  const probe = async () => {
    try {
      const res = await fetch(new URL('/healthz', apiUrl), { signal: AbortSignal.timeout(2000) });
      mark(res.ok, `GET /healthz answered ${res.status}`);
    } catch (err) {
      mark(false, (err as Error).message);
    }
  };
  const timer = setInterval(() => void probe(), everyMs);
  timer.unref();
  return { reachable: () => reachable, mark, stop: () => clearInterval(timer) };
}

/**
 * Token checks for a gateway without a database: ask the api (`GET /api/me`), which answers 200
 * for a live session and 401 for a dead one. Anything else (no answer, a 5xx) is no verdict: it
 * throws, and the gateway refuses with UNAVAILABLE, which the client retries while staying
 * signed in, rather than UNAUTHENTICATED, which signs it out.
 */
export function authenticateViaApi(
  apiUrl: string,
  api?: ReturnType<typeof watchApi>,
): (token: string) => Promise<string | null> {
  return async (token) => {
    let res: Response;
    try {
      res = await fetch(new URL('/api/me', apiUrl), {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(5000),
      });
    } catch (err) {
      api?.mark(false, (err as Error).message);
      throw err;
    }
    if (res.status === 401) {
      api?.mark(true);
      return null;
    }
    if (res.status !== 200) {
      api?.mark(false, `GET /api/me answered ${res.status}`);
      throw new Error(`GET /api/me answered ${res.status}`);
    }
    api?.mark(true);
    return ((await res.json()) as { id: string }).id;
  };
}
