import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { productMatches } from '@shared/product-search';
import type { Language } from '@client/i18n/languages';
import type { LiveProduct } from '@client/state';
import { ProductsView } from './ProductList';

/** The catalogue as the client holds it (ids and codes of market-sim/src/catalogue.ts). */
const codes: [string, string][] = [
  ['BTCUSDT', 'BTC/USDT'],
  ['ETHUSDT', 'ETH/USDT'],
  ['SOLUSDT', 'SOL/USDT'],
  ['XRPUSDT', 'XRP/USDT'],
  ['DOGEUSDT', 'DOGE/USDT'],
  ['EURUSD', 'EUR/USD'],
  ['GBPUSD', 'GBP/USD'],
  ['USDJPY', 'USD/JPY'],
  ['XAUUSD', 'XAU/USD'],
  ['XAGUSD', 'XAG/USD'],
  ['WTIUSD', 'WTI Crude'],
  ['US500', 'US500'],
];
const products: LiveProduct[] = codes.map(([id, name]) => ({
  id,
  name,
  category: 'crypto',
  precision: 2,
  status: 'open',
  price: '1.00',
  changePct: '0.00',
  high: '1.00',
  low: '1.00',
  volume: '10',
  amount: '10',
  bestRate: '0.85',
}));

/** The Product tab's list for `query`, as the page filters it, rendered in `lang`. */
function render(query: string, lang: Language = 'zh-CN'): string {
  const i18n = i18next.createInstance();
  void i18n.init({ lng: lang, resources: {}, initAsync: false });
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <ProductsView
          request={{ status: 'ready', data: products, retry: () => undefined }}
          filter={(product) => productMatches(product, query)}
        />
      </MemoryRouter>
    </I18nextProvider>,
  );
}
const rows = (html: string) =>
  [...html.matchAll(/data-testid="product-row-(\w+)"/g)].map((m) => m[1]);

describe('the product list search (client)', () => {
  it('finds gold by 黄金, gold and 金, and Bitcoin by btc and Bitcoin', () => {
    for (const q of ['黄金', 'gold', '金', 'Gold', 'ｇｏｌｄ'])
      expect({ q, rows: rows(render(q)) }).toEqual({ q, rows: ['XAUUSD'] });
    for (const q of ['btc', 'BTC/', 'Bitcoin', '比特币'])
      expect({ q, rows: rows(render(q)) }).toEqual({ q, rows: ['BTCUSDT'] });
  });

  it('shows every product for an empty query, and the empty state when nothing matches', () => {
    expect(rows(render(''))).toEqual(codes.map(([id]) => id));
    const none = render('钻石');
    expect(rows(none)).toEqual([]);
    expect(none).not.toContain('product-row');
  });

  it("names each product in the reader's language, with its code beside it", () => {
    expect(render('gold', 'zh-CN')).toMatch(/<strong>黄金<\/strong><small><span[^>]*>XAU\/USD · /);
    expect(render('gold', 'zh-TW')).toContain('<strong>黃金</strong>');
    expect(render('gold', 'ja')).toContain('<strong>金</strong>');
    expect(render('gold', 'vi')).toContain('<strong>Vàng</strong>');
    expect(render('btc', 'en')).toMatch(/<strong>Bitcoin<\/strong><small><span[^>]*>BTC\/USDT · /);
  });
});
