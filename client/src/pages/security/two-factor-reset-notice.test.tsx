import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createInstance } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { languages } from '@client/i18n/languages';
import { formatDateTime } from '@client/i18n/format';
import { ResetNoticeCard } from './TwoFactorResetNotice';

const files = import.meta.glob<{ default: object }>('@client/i18n/locales/security/*.json', {
  eager: true,
});
const securityOf = (lang: string) =>
  Object.entries(files).find(([path]) => path.endsWith(`/${lang}.json`))?.[1].default ?? {};
const i18n = createInstance();
await i18n.init({
  lng: 'en',
  resources: Object.fromEntries(languages.map((l) => [l, { translation: securityOf(l) }])),
  interpolation: { escapeValue: false },
});

const requestedAt = Date.UTC(2026, 11, 7, 9, 30);
const effectiveAt = Date.UTC(2026, 11, 10, 14, 0);
const render = (lang: string, reset: { requestedAt: number; effectiveAt: number | null }) => {
  const fixed = i18n.cloneInstance({ lng: lang });
  return renderToStaticMarkup(
    <I18nextProvider i18n={fixed}>
      <ResetNoticeCard reset={reset} busy={false} offline={false} onCancel={() => undefined} />
    </I18nextProvider>,
  );
};
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;|&quot;/g, "'");

describe('the pending two-factor reset on the security page', () => {
  it('says when support was asked while it awaits approval, and when it turns off once approved', () => {
    const asked = text(render('en', { requestedAt, effectiveAt: null }));
    expect(asked).toContain('Two-factor reset requested');
    expect(asked).toContain(formatDateTime(requestedAt, 'en'));
    expect(asked).toContain('A second staff member must approve it');
    const approved = text(render('en', { requestedAt, effectiveAt }));
    expect(approved).toContain(
      `Your two-factor authentication will be turned off on ${formatDateTime(effectiveAt, 'en')}.`,
    );
    expect(approved).toContain('Cancel the reset');
  });

  it.each(languages)('is worded whole in %s', (lang) => {
    const html = render(lang, { requestedAt, effectiveAt });
    expect(html).not.toMatch(/security\.reset|{{|}}/);
    expect(text(html)).toContain(formatDateTime(effectiveAt, lang));
    expect(html).toContain('data-testid="tfa-reset-cancel"');
  });
});
