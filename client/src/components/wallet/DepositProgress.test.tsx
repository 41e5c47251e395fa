import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createInstance } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import type { ReactNode } from 'react';
import type { Deposit } from '@shared/wallet/model';
import de from '@client/i18n/locales/wallet/de.json';
import en from '@client/i18n/locales/wallet/en.json';
import { DepositProgress } from './DepositProgress';
import { ExplorerLink } from './ExplorerLink';

const i18n = createInstance();
await i18n.init({
  lng: 'en',
  resources: { en: { translation: en }, de: { translation: de } },
  interpolation: { escapeValue: false },
});
const render = (node: ReactNode, lang = 'en') => {
  void i18n.changeLanguage(lang);
  return renderToStaticMarkup(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);
};

const transfer = (status: Deposit['status'], confirmations: number): Deposit => ({
  id: '9',
  channel: 'usdt-erc20',
  amount: 25_000,
  source: 'chain',
  chain: {
    fromAddress: '0x' + '1'.repeat(40),
    toAddress: '0x' + '2'.repeat(40),
    blockNumber: 19_000_000,
    logIndex: 3,
    confirmations,
    requiredConfirmations: 12,
    explorerUrl: 'https://etherscan.io/tx/0x' + 'ab'.repeat(32),
  },
  status,
  createdAt: 0,
});

describe("a USDT transfer's progress", () => {
  it('reads "Confirming n/N" with a bar while the network confirms it', () => {
    const html = render(<DepositProgress deposit={transfer('confirming', 3)} testId="p" />);
    expect(html).toContain('<progress class="upload-progress__bar" max="12" value="3"');
    expect(html).toContain('data-testid="p">Confirming 3/12</span>');
    expect(
      render(<DepositProgress deposit={transfer('confirming', 3)} testId="p" />, 'de'),
    ).toContain('Bestätigung 3/12');
  });

  it('shows nothing once credited, held or dropped', () => {
    for (const status of ['approved', 'pending', 'dropped'] as const)
      expect(render(<DepositProgress deposit={transfer(status, 12)} testId="p" />)).toBe('');
  });

  it('links the transaction on the explorer in a new tab, without handing it the page', () => {
    const html = render(<ExplorerLink deposit={transfer('approved', 12)} testId="x" />);
    expect(html).toContain('href="https://etherscan.io/tx/0xabab');
    expect(html).toContain('target="_blank" rel="noopener noreferrer"');
    expect(html).toContain('View on block explorer');
    const { chain: _chain, ...bank } = transfer('approved', 12);
    expect(render(<ExplorerLink deposit={bank} testId="x" />)).toBe('');
  });
});
