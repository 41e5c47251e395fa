import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import accountEn from '@client/i18n/locales/account/en.json';
import commonEn from '@client/i18n/locales/common/en.json';
import walletEn from '@client/i18n/locales/wallet/en.json';
import { AccountHold } from '@client/pages/account/AccountHold';
import { TwoFactorCodeField } from './TwoFactorCodeField';
import type { MessageKey } from './validation';

const i18n = i18next.createInstance();
void i18n.init({
  lng: 'en',
  resources: { en: { translation: { ...accountEn, ...commonEn, ...walletEn } } },
  initAsync: false,
});

const render = (node: React.ReactNode) =>
  renderToStaticMarkup(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);

const field = (value: string, error: MessageKey | null = null) =>
  render(
    <TwoFactorCodeField
      name="code"
      value={value}
      error={error}
      onValue={() => undefined}
      onBlur={() => undefined}
    />,
  );

describe('the two-factor code field', () => {
  it('is one labelled input the phone can fill from a one-time code, with its hint', () => {
    const html = field('');
    expect(html).toContain('data-testid="tfa-code"');
    expect(html).toMatch(/autocomplete="one-time-code"/i);
    expect(html).toContain('inputMode="numeric"');
    expect(html).toContain('>Two-factor code</label>');
    expect(html).toContain('The 6-digit code from your authenticator app, or a recovery code.');
    expect(html).toContain('Use a recovery code');
  });

  it('takes letters once a recovery code is being typed', () => {
    expect(field('ABCDE')).toContain('inputMode="text"');
  });

  it("shows the server's refusal of the code under it, in place of the hint", () => {
    const html = field('123456', 'errors.TWO_FACTOR_CODE_WRONG');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toMatch(
      /data-testid="tfa-code-error">That code is wrong or was used already\. Enter a new code\.</,
    );
    expect(html).not.toContain('The 6-digit code from your authenticator app');
  });
});

describe("a withdrawal account's hold", () => {
  it('counts down while it is on, and is gone when it ends', () => {
    expect(render(<AccountHold id="7" left={(23 * 3600 + 14 * 60 + 5) * 1000} />)).toMatch(
      /data-testid="account-hold-7">Usable for withdrawals in 23:14:05</,
    );
    expect(render(<AccountHold id="7" left={0} />)).toBe('');
  });
});
