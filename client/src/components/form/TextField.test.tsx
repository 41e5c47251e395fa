import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { registerCheckSchema } from '@client/pages/login/registerCheck';
import accountEn from '@client/i18n/locales/account/en.json';
import accountZh from '@client/i18n/locales/account/zh-CN.json';
import commonEn from '@client/i18n/locales/common/en.json';
import commonZh from '@client/i18n/locales/common/zh-CN.json';
import { TextField } from './TextField';
import { validateAll } from './validation';

/** The account input of the registration form as it renders `values`' first problem, in `lng`. */
function renderAccount(values: Record<string, string>, lng: 'en' | 'zh-CN') {
  const i18n = i18next.createInstance();
  void i18n.init({
    lng,
    resources: {
      en: { translation: { ...accountEn, ...commonEn } },
      'zh-CN': { translation: { ...accountZh, ...commonZh } },
    },
    initAsync: false,
  });
  const error = validateAll<'account'>(registerCheckSchema, values).account ?? null;
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <TextField
        name="account"
        label="account"
        testId="account"
        value={values.account ?? ''}
        error={error}
        onValue={() => undefined}
        onBlur={() => undefined}
      />
    </I18nextProvider>,
  );
}

const errorText = (html: string) => /data-testid="account-error">([^<]*)</.exec(html)?.[1] ?? null;

describe('a form field under the shared schema', () => {
  const form = { phone: '+8613800138000', inviteCode: 'WELCOME' };

  it("shows the shared account rule's refusal as the translated rule, marked on the input", () => {
    const html = renderAccount({ ...form, account: 'ab-cd' }, 'en');
    expect(errorText(html)).toBe('4–20 letters, digits or underscores');
    expect(html).toContain('aria-invalid="true"');
    expect(errorText(renderAccount({ ...form, account: 'a'.repeat(21) }, 'zh-CN'))).toBe(
      '4–20 位字母、数字或下划线',
    );
  });

  it('asks for a blank field, and shows nothing for a good one', () => {
    expect(errorText(renderAccount({ ...form, account: '  ' }, 'en'))).toBe(
      'Please fill in this field',
    );
    const good = renderAccount({ ...form, account: 'alice_01' }, 'en');
    expect(errorText(good)).toBeNull();
    expect(good).not.toContain('aria-invalid');
  });
});
