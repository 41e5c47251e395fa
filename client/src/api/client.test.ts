import { afterEach, describe, expect, it, vi } from 'vitest';
import * as orders from '@shared/orders/routes';
import { ApiError, buildUrl, call, isAbort, onUnauthorized, request, setAuthToken } from './client';

function answer(status: number, body: string) {
  return vi.fn(() => Promise.resolve(new Response(body === '' ? null : body, { status })));
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  setAuthToken(null);
});

describe('buildUrl', () => {
  it('puts the base path first and leaves out empty parameters', () => {
    expect(buildUrl('/market/products')).toBe('/api/market/products');
    expect(
      buildUrl('/market/candles', { product: 'BTCUSDT', limit: 1000, before: undefined }),
    ).toBe('/api/market/candles?product=BTCUSDT&limit=1000');
    expect(buildUrl('/market/products', { q: 'btc/usdt' })).toBe(
      '/api/market/products?q=btc%2Fusdt',
    );
  });
});

describe('request', () => {
  it('returns the parsed JSON of a 2xx answer', async () => {
    const fetch = answer(200, '[{"id":"BTCUSDT"}]');
    vi.stubGlobal('fetch', fetch);
    await expect(request('/market/products', { query: { q: 'btc' } })).resolves.toEqual([
      { id: 'BTCUSDT' },
    ]);
    expect(fetch).toHaveBeenCalledWith('/api/market/products?q=btc', expect.anything());
  });

  it('returns undefined for an empty 204', async () => {
    vi.stubGlobal('fetch', answer(204, ''));
    await expect(request('/auth/logout', { method: 'POST' })).resolves.toBeUndefined();
  });

  it('sends a JSON body', async () => {
    const fetch = answer(200, '{}');
    vi.stubGlobal('fetch', fetch);
    await request('/x', { method: 'POST', body: { a: 1 } });
    const init = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(init[1].body).toBe('{"a":1}');
    expect((init[1].headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('turns an error answer into an ApiError with code, message and field', async () => {
    vi.stubGlobal(
      'fetch',
      answer(400, '{"error":{"code":"VALIDATION_FAILED","message":"bad","field":"limit"}}'),
    );
    const err = (await request('/x').catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'VALIDATION_FAILED', message: 'bad', field: 'limit' });
    expect(err.status).toBe(400);
  });

  it('rejects non-2xx answers without an error body', async () => {
    vi.stubGlobal('fetch', answer(502, '<html>bad gateway</html>'));
    await expect(request('/x')).rejects.toMatchObject({ code: 'INTERNAL', status: 502 });
    vi.stubGlobal('fetch', answer(302, ''));
    await expect(request('/x')).rejects.toMatchObject({ code: 'BAD_RESPONSE', status: 302 });
  });

  it('rejects a 2xx answer that is not JSON', async () => {
    vi.stubGlobal('fetch', answer(200, '<html>'));
    await expect(request('/x')).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });

  it('reports a network failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(request('/x')).rejects.toMatchObject({ code: 'NETWORK' });
  });

  it('gives up after the timeout', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () =>
              reject(new DOMException('aborted', 'AbortError')),
            ),
          ),
      ),
    );
    const pending = request('/x').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(59_999);
    vi.advanceTimersByTime(1);
    await expect(pending).resolves.toMatchObject({ code: 'TIMEOUT' });
  });

  it('passes a caller cancellation through as an abort', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () =>
              reject(new DOMException('aborted', 'AbortError')),
            ),
          ),
      ),
    );
    const controller = new AbortController();
    const pending = request('/x', { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(isAbort(await pending)).toBe(true);
  });
});

describe('session token', () => {
  const sentHeaders = (fetch: ReturnType<typeof answer>) =>
    (fetch.mock.calls.at(-1) as unknown as [string, RequestInit])[1].headers as Record<
      string,
      string
    >;

  it('sends the token as a bearer header, and none without one', async () => {
    const fetch = answer(200, '{}');
    vi.stubGlobal('fetch', fetch);
    await request('/me');
    expect(sentHeaders(fetch)).not.toHaveProperty('Authorization');
    setAuthToken('abc');
    await request('/me');
    expect(sentHeaders(fetch).Authorization).toBe('Bearer abc');
  });

  it('reports a 401 only for a request that carried the current token', async () => {
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    vi.stubGlobal('fetch', answer(401, '{"error":{"code":"BAD_CREDENTIALS","message":"x"}}'));
    await request('/auth/login').catch(() => undefined);
    expect(listener).not.toHaveBeenCalled();
    setAuthToken('abc');
    await request('/me').catch(() => undefined);
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    await request('/me').catch(() => undefined);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('call', () => {
  it("fills the endpoint's path, and sends its method, query and an idempotent body's key", async () => {
    const fetch = answer(200, '{"id":"7"}');
    vi.stubGlobal('fetch', fetch);
    await call(orders.getOrder, { params: { id: '7/x' } });
    expect(fetch).toHaveBeenLastCalledWith(
      '/api/orders/7%2Fx',
      expect.objectContaining({ method: 'GET' }),
    );
    await call(orders.listOrders, { query: { status: 'open', limit: 5 } });
    expect(fetch).toHaveBeenLastCalledWith('/api/orders?status=open&limit=5', expect.anything());
    const body = { productId: 'BTCUSDT', direction: 'up', amount: 100, duration: 30 } as const;
    await call(orders.placeOrder, { body }, { idempotencyKey: 'k1' });
    const [url, init] = fetch.mock.lastCall as unknown as [string, RequestInit];
    expect(url).toBe('/api/orders');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Idempotency-Key')).toBe('k1');
    expect(JSON.parse(init.body as string)).toEqual(body);
  });
});
