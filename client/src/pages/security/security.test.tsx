import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createInstance } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import common from '@client/i18n/locales/common/en.json';
import security from '@client/i18n/locales/security/en.json';
import { RecoveryCodes } from './RecoveryCodes';
import { SecretKey } from './TwoFactorEnrol';
import { phraseProblem } from './PhraseSection';

const i18n = createInstance();
await i18n.init({
  lng: 'en',
  resources: { en: { translation: { ...common, ...security } } },
  interpolation: { escapeValue: false },
});
const render = (node: React.ReactNode) =>
  renderToStaticMarkup(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);

describe('the security page', () => {
  it('shows the manual key in groups of four, its text the key itself', () => {
    const html = render(<SecretKey secret="JBSWY3DPEHPK3PXPAB" />);
    const key = /<code[^>]*data-testid="tfa-secret"[^>]*>(.*?)<\/code>/.exec(html)?.[1] ?? '';
    const groups = [...key.matchAll(/<span[^>]*>([^<]*)<\/span>/g)].map((m) => m[1]);
    expect(groups).toEqual(['JBSW', 'Y3DP', 'EHPK', '3PXP', 'AB']);
    expect(key.replace(/<[^>]+>/g, '')).toBe('JBSWY3DPEHPK3PXPAB');
    expect(html).toContain('>Copy<');
  });

  it('shows the ten recovery codes once, with the warning, Copy, Download and Done', () => {
    const codes = Array.from({ length: 10 }, (_, i) => `ABCDE-FGH${'JKMNPQRSTU'[i]}${i + 2}`);
    const html = render(<RecoveryCodes codes={codes} onDone={() => undefined} />);
    expect(html).toContain('data-testid="recovery-codes"');
    expect(html.match(/<li /g)).toHaveLength(10);
    expect(html).toContain('Save these recovery codes now');
    for (const id of ['recovery-copy', 'recovery-download', 'recovery-done'])
      expect(html).toContain(`data-testid="${id}"`);
  });

  it('takes an anti-phishing phrase of 4-20 letters, digits or spaces', () => {
    expect(phraseProblem('')).toBe('common.required');
    expect(phraseProblem('blue harbour 42')).toBeNull();
    expect(phraseProblem('蓝色港湾')).toBeNull();
    expect(phraseProblem('abc')).toBe('security.phrase.rule');
    expect(phraseProblem('a'.repeat(21))).toBe('security.phrase.rule');
    expect(phraseProblem('no-dashes!')).toBe('security.phrase.rule');
  });
});
