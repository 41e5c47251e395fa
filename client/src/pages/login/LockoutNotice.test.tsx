import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createInstance } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { ApiError } from '@client/api/client';
import de from '@client/i18n/locales/account/de.json';
import en from '@client/i18n/locales/account/en.json';
import zhCN from '@client/i18n/locales/account/zh-CN.json';
import { LockoutNotice, lockedUntil, lockoutText } from './LockoutNotice';

const i18n = createInstance();
await i18n.init({
  lng: 'en',
  resources: {
    en: { translation: en },
    de: { translation: de },
    'zh-CN': { translation: zhCN },
  },
  interpolation: { escapeValue: false },
});
const textsIn = (lang: string) => i18n.getFixedT(lang);
/** The wait is one unbreakable run (no "14 | min" at a narrow width); compared as plain spaces. */
const NBSP = '\u00a0';
const spaced = (text: string) => text.replaceAll(NBSP, ' ');

describe('the login lock-out notice', () => {
  it('says how long to wait, in the two units that matter, in each language', () => {
    const en = (s: number) => spaced(lockoutText(textsIn('en'), s));
    expect(en(270)).toBe('Too many attempts. Try again in 4 min 30 s.');
    expect(en(42.2)).toBe('Too many attempts. Try again in 43 s.');
    expect(en(23 * 3600 + 59 * 60 + 5)).toBe('Too many attempts. Try again in 23 h 59 min.');
    expect(spaced(lockoutText(textsIn('de'), 270))).toBe(
      'Zu viele Versuche. Versuchen Sie es in 4 Min. 30 Sek. erneut.',
    );
    expect(spaced(lockoutText(textsIn('zh-CN'), 270))).toBe('尝试次数过多，请 4 分 30 秒后再试。');
    // Never "0 s" while still locked.
    expect(en(0.2)).toBe('Too many attempts. Try again in 1 s.');
  });

  it('never breaks a line inside the wait, in any of the ten languages', async () => {
    const files = import.meta.glob<{ default: Record<string, unknown> }>(
      '@client/i18n/locales/account/*.json',
    );
    expect(Object.keys(files)).toHaveLength(10);
    for (const [file, load] of Object.entries(files)) {
      const lang = file.replace(/^.*\/(.+)\.json$/, '$1');
      i18n.addResourceBundle(lang, 'translation', (await load()).default, true, true);
      for (const seconds of [42, 270, 23 * 3600 + 59 * 60]) {
        const text = lockoutText(i18n.getFixedT(lang), seconds);
        // From the first figure to the last unit (attached, as 30초, or a word after a space):
        // no ordinary space in it.
        const run = /\d.*\d(?:\S+|\s\S+)/u.exec(text)?.[0] ?? '';
        expect(run, `${lang} ${seconds}`).toMatch(/\d/);
        expect(run, `${lang} ${seconds}`).not.toMatch(/ /);
      }
    }
  });

  it('reads the wait from a locked-out login only', () => {
    const now = 1_000_000;
    const locked = new ApiError('TOO_MANY_ATTEMPTS', 'locked', 429, undefined, 270_000);
    expect(lockedUntil(locked, now)).toBe(now + 270_000);
    // A confirmation-password lock says no time; other refusals are the form's own errors.
    expect(lockedUntil(new ApiError('TOO_MANY_ATTEMPTS', 'locked', 429), now)).toBeNull();
    expect(lockedUntil(new ApiError('BAD_CREDENTIALS', 'wrong', 401), now)).toBeNull();
    expect(lockedUntil(new Error('offline'), now)).toBeNull();
  });

  it('shows the time left, and speaks it once to screen readers', () => {
    void i18n.changeLanguage('en');
    const html = renderToStaticMarkup(
      <I18nextProvider i18n={i18n}>
        <LockoutNotice until={Date.now() + 270_000} onOver={() => undefined} />
      </I18nextProvider>,
    );
    expect(html).toContain('role="alert"');
    expect(html).toMatch(
      /<span aria-hidden="true" data-testid="lockout">Too many attempts\. Try again in\u00a04\u00a0min\u00a0(30|29)\u00a0s\.<\/span>/,
    );
  });
});
