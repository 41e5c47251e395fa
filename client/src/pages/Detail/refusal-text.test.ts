import i18next, { type ResourceKey, type TFunction } from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, request } from '@client/api/client';
import { errorText } from '@client/components/error-text';
import { languages, type Language } from '@client/i18n/languages';
import { localePathsFor, mergeLocales } from '@client/i18n/resources';
import { refusalText } from './ticket';

const files = import.meta.glob<ResourceKey>('../../i18n/locales/*/*.json', {
  eager: true,
  import: 'default',
});

/** `t` of one language with the app's own texts (every feature file merged, as the app loads them). */
function textsOf(lang: Language): TFunction {
  const paths = localePathsFor(
    lang,
    Object.keys(files).map((p) => p.replace('../../i18n/', './')),
  );
  const resources = mergeLocales(paths.map((p) => files[p.replace('./', '../../i18n/')]!));
  const i18n = i18next.createInstance();
  void i18n.init({
    lng: lang,
    resources: { [lang]: { translation: resources } },
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return i18n.t;
}

/** A refused placement as the API client turns the server's answer into an ApiError. */
async function refused(status: number, body: unknown, headers: Record<string, string> = {}) {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status, headers }))),
  );
  return (await request('/orders', { method: 'POST', body: {} }).catch(
    (e: unknown) => e,
  )) as ApiError;
}

const outOfRange = () => 'out of range';

afterEach(() => vi.unstubAllGlobals());

describe('the ticket after a refused order', () => {
  it('says how long to wait when too many orders were placed, from the body of the 429', async () => {
    const error = await refused(
      429,
      { error: { code: 'RATE_LIMITED', message: 'Too many orders', retryAfterMs: 2_400 } },
      { 'Retry-After': '3' },
    );
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfterMs: 2_400 });
    expect(refusalText(textsOf('en'), error, outOfRange)).toBe(
      'Too many orders. Please try again in 3 s.',
    );
    expect(refusalText(textsOf('zh-CN'), error, outOfRange)).toBe(
      '订单提交过于频繁，请在3秒后重试。',
    );
    expect(refusalText(textsOf('de'), error, outOfRange)).toBe(
      'Zu viele Orders. Bitte versuchen Sie es in 3 Sek. erneut.',
    );
  });

  it('reads the wait from Retry-After when the body has none, never showing under 1 s', async () => {
    const fromHeader = await refused(
      429,
      { error: { code: 'RATE_LIMITED', message: 'slow down' } },
      { 'Retry-After': '7' },
    );
    expect(refusalText(textsOf('en'), fromHeader, outOfRange)).toBe(
      'Too many orders. Please try again in 7 s.',
    );
    const soon = new ApiError('RATE_LIMITED', 'x', 429, undefined, 40);
    expect(refusalText(textsOf('ja'), soon, outOfRange)).toBe(
      '注文が多すぎます。1秒後に再度お試しください。',
    );
  });

  it('puts the number of seconds in the text of every language', () => {
    const error = new ApiError('RATE_LIMITED', 'x', 429, undefined, 12_000);
    for (const lang of languages) {
      const text = refusalText(textsOf(lang), error, outOfRange);
      expect(text, lang).toContain('12');
      expect(text, lang).not.toContain('{{');
      expect(text, lang).not.toBe(textsOf(lang)('errors.RATE_LIMITED'));
    }
  });

  it('keeps the plain texts when the server gave no time, and for other refusals', async () => {
    const en = textsOf('en');
    const noTime = await refused(429, { error: { code: 'RATE_LIMITED', message: 'x' } });
    expect(refusalText(en, noTime, outOfRange)).toBe('Too many requests. Please wait a moment.');
    const stale = new ApiError('QUOTE_STALE', 'x', 409);
    expect(refusalText(en, stale, outOfRange)).toBe('The price is not current. Please try again.');
    expect(refusalText(en, new ApiError('AMOUNT_OUT_OF_RANGE', 'x', 400), outOfRange)).toBe(
      'out of range',
    );
  });

  it('gives other throttled requests (a practice reset) the wait too, and a busy server its text', () => {
    const en = textsOf('en');
    const reset = new ApiError('RATE_LIMITED', 'x', 429, undefined, 9_100);
    expect(errorText(en, reset)).toBe('Too many requests. Please try again in 10 s.');
    const busy = new ApiError('UNAVAILABLE', 'x', 503, undefined, 2_000);
    expect(errorText(en, busy)).toBe('The server is busy. Please try again in a moment.');
  });
});
