import { describe, expect, it } from 'vitest';
import { createInstance } from 'i18next';
import type { Message, SystemMessageKind } from '@shared/content/model';
import { languages } from '@client/i18n/languages';
import { paths } from '@client/app/route-table';
import { messageLinks, messageText, SECURITY_PAGE } from './message-text';

const files = import.meta.glob<{ default: object }>('@client/i18n/locales/content/*.json', {
  eager: true,
});
const contentOf = (lang: string) =>
  Object.entries(files).find(([path]) => path.endsWith(`/${lang}.json`))?.[1].default ?? {};

const i18n = createInstance();
await i18n.init({
  lng: 'en',
  resources: Object.fromEntries(languages.map((l) => [l, { translation: contentOf(l) }])),
  interpolation: { escapeValue: false },
});

type Params = Message['params'];
const kinds: { kind: SystemMessageKind; params: Params }[] = [
  { kind: 'security_sign_in', params: { device: 'Chrome · Android' } },
  { kind: 'security_password', params: { which: 'login' } },
  { kind: 'security_password', params: { which: 'trade' } },
  { kind: 'security_two_factor_on', params: {} },
  { kind: 'security_two_factor_off', params: {} },
  { kind: 'security_two_factor_reset', params: { at: Date.UTC(2026, 11, 10, 9, 30) } },
  { kind: 'security_withdrawal_account', params: {} },
  { kind: 'security_withdrawal', params: { amount: 12_345 } },
];

const words = (lang: string, kind: Message['kind'], params: Params) =>
  messageText(i18n.getFixedT(lang), { kind, params, title: '', body: '' }, lang, 'USDT');

describe('security messages', () => {
  it('words a new sign-in with its device, and ends with the anti-phishing phrase', () => {
    expect(words('en', 'security_sign_in', { device: 'Chrome · Android' }).body).toBe(
      'New sign-in on Chrome · Android. If this was not you, change your password and sign out other sessions on the Security page.',
    );
    expect(
      words('en', 'security_sign_in', { device: 'Chrome · Android', phrase: 'blue heron' }).body,
    ).toBe(
      'New sign-in on Chrome · Android. If this was not you, change your password and sign out other sessions on the Security page. Anti-phishing phrase: blue heron',
    );
    expect(words('zh-CN', 'security_withdrawal', { amount: 500, phrase: '蓝鹭' }).body).toBe(
      '您的账户申请提现 5.00 USDT。如非本人操作，请立即联系客服。防钓鱼码：蓝鹭',
    );
  });

  it('names which password changed', () => {
    expect(words('en', 'security_password', { which: 'trade' }).body).toMatch(
      /^Your transaction password was changed\./,
    );
    expect(words('en', 'security_password', { which: 'login' }).body).toMatch(
      /^Your login password was changed\./,
    );
  });

  describe.each(languages)('in %s', (lang) => {
    it.each(kinds)('$kind has a title and a whole body, with and without a phrase', (m) => {
      const plain = words(lang, m.kind, m.params);
      expect(plain.title).not.toBe('');
      expect(plain.title).not.toContain('content.messages');
      expect(plain.body).not.toMatch(/content\.messages|{{|}}/);
      if (m.params.device) expect(plain.body).toContain(m.params.device);
      if (m.params.amount) expect(plain.body).toMatch(/123[.,]45/);
      const phrased = words(lang, m.kind, { ...m.params, phrase: 'Quiet Lake 7' });
      expect(phrased.title).toBe(plain.title);
      expect(phrased.body.startsWith(plain.body)).toBe(true);
      expect(phrased.body.endsWith('Quiet Lake 7')).toBe(true);
      expect(phrased.body.length).toBeGreaterThan(plain.body.length + 'Quiet Lake 7'.length);
      expect(plain.body).not.toContain('Quiet Lake 7');
    });

    it('has a link label for every security kind', () => {
      for (const { kind } of kinds)
        expect(i18n.getFixedT(lang)(`content.messages.links.${kind}`)).not.toContain('links');
    });
  });

  it('opens the security page, or the withdrawal list for a withdrawal', () => {
    expect(messageLinks.security_sign_in).toBe(SECURITY_PAGE);
    expect(messageLinks.security_password).toBe('/pages/security/security');
    expect(messageLinks.security_two_factor_on).toBe(SECURITY_PAGE);
    expect(messageLinks.security_two_factor_off).toBe(SECURITY_PAGE);
    expect(messageLinks.security_withdrawal_account).toBe(SECURITY_PAGE);
    expect(messageLinks.security_withdrawal).toBe(paths.withdrawList);
  });
});
