/**
 * The verification tools read the public tape a great deal (once per order, page by page per
 * period), past the per-address limit of market reads (docs/API.md). A read the server refuses
 * for its rate (429) or for being busy (503) with a time to wait is sent again after that wait.
 */

/** Times one request is sent again after a wait, at most. */
const MAX_WAITS = 30;

/**
 * How long the server asked to wait before the request is sent again (ms): its body's
 * `retryAfterMs`, else its Retry-After header, at most a minute; null when it asked nothing.
 */
export function retryWait(status: number, body: string, retryAfter: string | null): number | null {
  if (status !== 429 && status !== 503) return null;
  let ms: unknown;
  try {
    ms = (JSON.parse(body) as { error?: { retryAfterMs?: unknown } }).error?.retryAfterMs;
  } catch {
    ms = undefined;
  }
  if (typeof ms !== 'number' && retryAfter && /^\d+$/.test(retryAfter.trim()))
    ms = Number(retryAfter) * 1000;
  return typeof ms === 'number' && Number.isFinite(ms) ? Math.min(Math.max(ms, 0), 60_000) : null;
}

/** `fetchImpl` that waits and sends again what a throttled or busy server refused. */
export function patientFetch(fetchImpl: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    for (let waits = 0; ; waits++) {
      const res = await fetchImpl(input, init);
      if (res.ok || waits >= MAX_WAITS || (res.status !== 429 && res.status !== 503)) return res;
      const body = await res.clone().text();
      const wait = retryWait(res.status, body, res.headers.get('Retry-After'));
      if (wait === null) return res;
      await new Promise((r) => setTimeout(r, wait));
    }
  };
}
