import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import accountEn from '@client/i18n/locales/account/en.json';
import commonEn from '@client/i18n/locales/common/en.json';
import { digitsOnly } from '@client/components/form/validation';
import { sixBoxes, TradePasswordField } from './TradePasswordField';

function render(value: string) {
  const i18n = i18next.createInstance();
  void i18n.init({
    lng: 'en',
    resources: { en: { translation: { ...accountEn, ...commonEn } } },
    initAsync: false,
  });
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <TradePasswordField
        name="tradePassword"
        value={value}
        error={null}
        onValue={() => undefined}
        onBlur={() => undefined}
      />
    </I18nextProvider>,
  );
}

describe('the six-box transaction password', () => {
  it('is one labelled, masked, numeric input of six digits under six boxes', () => {
    const html = render('123');
    const input = /<input[^>]*>/.exec(html)![0];
    const id = /id="([^"]+)"/.exec(input)![1]!;
    expect(html).toContain(`<label class="field__label" for="${id}">`);
    expect(input).toMatch(/type="password"/);
    expect(input).toMatch(/inputMode="numeric"|inputmode="numeric"/);
    expect(input).toMatch(/maxLength="6"|maxlength="6"/);
    expect(html.match(/six-box__box[" ]/g)).toHaveLength(6);
    expect(html.match(/six-box__box--filled/g)).toHaveLength(3);
    expect(html).toMatch(/aria-hidden="true" data-testid="trade-password-boxes"/);
  });

  it('fills boxes left to right, the next box marked, the last once all six are in', () => {
    expect(sixBoxes('').map((b) => b.next)).toEqual([true, false, false, false, false, false]);
    expect(sixBoxes('12').filter((b) => b.filled)).toHaveLength(2);
    expect(sixBoxes('12')[2]!.next).toBe(true);
    expect(sixBoxes('123456').every((b) => b.filled)).toBe(true);
    expect(sixBoxes('123456')[5]!.next).toBe(true);
  });

  it('keeps the digits of a paste, six at most', () => {
    expect(digitsOnly(' 12-34 56 78')).toBe('123456');
    expect(digitsOnly('１２3abc4')).toBe('34');
  });
});
