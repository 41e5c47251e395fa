import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, onUnauthorized, request, setAuthToken } from './client';
import { createDeposit, getUpload } from './wallet';

/** A stand-in for XMLHttpRequest: records what was sent, answers when told to. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  timeout = 0;
  status = 0;
  responseText = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  upload: {
    onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;
  } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  /** The answer's headers (Retry-After of a throttled upload), by lower-case name. */
  responseHeaders: Record<string, string> = {};
  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  answer(status: number, text: string, headers: Record<string, string> = {}) {
    this.status = status;
    this.responseText = text;
    this.responseHeaders = headers;
    this.onload?.();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  setAuthToken(null);
  FakeXhr.last = null;
});

const deposit = {
  channel: 'usdt-trc20',
  txId: 'ab'.repeat(32),
  remark: 'tx',
} as const;
const shot = () => new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });

describe('upload (multipart with progress)', () => {
  it('sends the fields, the file, the token and the Idempotency-Key, and reports progress', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    setAuthToken('abc');
    const progress: [number, number][] = [];
    const pending = createDeposit(deposit, shot(), 'key-1', {
      onProgress: (sent, total) => progress.push([sent, total]),
    });
    const xhr = FakeXhr.last!;
    expect([xhr.method, xhr.url]).toEqual(['POST', '/api/deposits']);
    expect(xhr.headers).toMatchObject({ Authorization: 'Bearer abc', 'Idempotency-Key': 'key-1' });
    const form = xhr.body as FormData;
    expect(form.get('channel')).toBe('usdt-trc20');
    expect(form.get('txId')).toBe('ab'.repeat(32));
    // A claim names the transaction only: the server reads the amount from the chain.
    expect(form.get('quantity')).toBeNull();
    expect(form.get('remark')).toBe('tx');
    expect((form.get('screenshot') as File).name).toBe('screenshot.png');
    xhr.upload.onprogress?.({ loaded: 2, total: 4, lengthComputable: true });
    xhr.upload.onprogress?.({ loaded: 4, total: 0, lengthComputable: false });
    xhr.answer(201, '{"id":"7","status":"pending"}');
    await expect(pending).resolves.toEqual({ id: '7', status: 'pending' });
    expect(progress).toEqual([
      [2, 4],
      [4, 0],
    ]);
  });

  it('turns refusals, network failures and timeouts into ApiErrors, and reports a 401', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    setAuthToken('abc');
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    let pending = createDeposit(deposit, shot(), 'k');
    FakeXhr.last!.answer(
      400,
      '{"error":{"code":"AMOUNT_OUT_OF_RANGE","message":"x","field":"txId"}}',
    );
    await expect(pending).rejects.toMatchObject({
      code: 'AMOUNT_OUT_OF_RANGE',
      field: 'txId',
      status: 400,
    });
    pending = createDeposit(deposit, shot(), 'k');
    FakeXhr.last!.answer(401, '{"error":{"code":"UNAUTHENTICATED","message":"x"}}');
    await expect(pending).rejects.toBeInstanceOf(ApiError);
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    pending = createDeposit(deposit, shot(), 'k');
    FakeXhr.last!.onerror?.();
    await expect(pending).rejects.toMatchObject({ code: 'NETWORK' });
    pending = createDeposit(deposit, shot(), 'k');
    FakeXhr.last!.ontimeout?.();
    await expect(pending).rejects.toMatchObject({ code: 'TIMEOUT' });
    pending = createDeposit(deposit, shot(), 'k');
    FakeXhr.last!.answer(201, '<html>');
    await expect(pending).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });

  it('cancels with the caller signal', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const controller = new AbortController();
    const pending = createDeposit(deposit, shot(), 'k', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('request with FormData and blobs', () => {
  it('sends a FormData body as it is, without a JSON content type', async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response('{}', { status: 201 })));
    vi.stubGlobal('fetch', fetch);
    const form = new FormData();
    form.append('a', '1');
    await request('/x', { method: 'POST', body: form });
    const init = (fetch.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.body).toBe(form);
    expect(init.headers).not.toHaveProperty('Content-Type');
  });

  it('returns a private image as a blob, and its refusal as an ApiError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(new Uint8Array([1, 2, 3]), {
            status: 200,
            headers: { 'Content-Type': 'image/png' },
          }),
        ),
      ),
    );
    const blob = await getUpload('abc');
    expect(blob.size).toBe(3);
    expect(blob.type).toBe('image/png');
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response('{"error":{"code":"NOT_FOUND","message":"x"}}', { status: 404 }),
        ),
      ),
    );
    await expect(getUpload('abc')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});
