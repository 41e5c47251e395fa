import { describe, expect, it } from 'vitest';
import { productDisplayName } from './product-names';
import { foldForSearch, productMatches } from './product-search';

/** The catalogue's ids and codes (market-sim/src/catalogue.ts), as the API names them. */
const products = [
  { id: 'BTCUSDT', name: 'BTC/USDT' },
  { id: 'ETHUSDT', name: 'ETH/USDT' },
  { id: 'SOLUSDT', name: 'SOL/USDT' },
  { id: 'XRPUSDT', name: 'XRP/USDT' },
  { id: 'DOGEUSDT', name: 'DOGE/USDT' },
  { id: 'EURUSD', name: 'EUR/USD' },
  { id: 'GBPUSD', name: 'GBP/USD' },
  { id: 'USDJPY', name: 'USD/JPY' },
  { id: 'XAUUSD', name: 'XAU/USD' },
  { id: 'XAGUSD', name: 'XAG/USD' },
  { id: 'WTIUSD', name: 'WTI Crude' },
  { id: 'US500', name: 'US500' },
];
const found = (q: string) => products.filter((p) => productMatches(p, q)).map((p) => p.id);

describe('product search', () => {
  it('finds gold by its name in any language', () => {
    for (const q of [
      '黄金',
      '黃金',
      'gold',
      'GOLD',
      '金',
      '금',
      'ทองคำ',
      'Vàng',
      'vang',
      'emas',
      'Or',
    ])
      expect({ q, found: found(q) }).toEqual({ q, found: ['XAUUSD'] });
  });

  it('finds a product by its code, ignoring case and punctuation', () => {
    expect(found('btc')).toEqual(['BTCUSDT']);
    expect(found('BTC/')).toEqual(['BTCUSDT']);
    expect(found('xauusd')).toEqual(['XAUUSD']);
    expect(found('/usdt')).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'DOGEUSDT']);
    expect(found('eur')).toEqual(['EURUSD']);
    expect(found('eth')).toEqual(['ETHUSDT']);
    expect(found('us500')).toEqual(['US500']);
  });

  it('finds names typed on any keyboard: case, width, accents, kana, spaces', () => {
    expect(found('Bitcoin')).toEqual(['BTCUSDT']);
    expect(found('比特')).toEqual(['BTCUSDT']);
    expect(found('ＢＴＣ')).toEqual(['BTCUSDT']); // full-width Latin
    expect(found('ﾋﾞｯﾄｺｲﾝ')).toEqual(['BTCUSDT']); // half-width katakana
    expect(found('びっとこいん')).toEqual(['BTCUSDT']); // hiragana for katakana
    expect(found('đô la mỹ')).toEqual(['EURUSD', 'GBPUSD', 'USDJPY']);
    expect(found('do la my')).toEqual(['EURUSD', 'GBPUSD', 'USDJPY']);
    expect(found('rohol')).toEqual(['WTIUSD']);
    expect(found('원유')).toEqual(['WTIUSD']);
    expect(found('原油')).toEqual(['WTIUSD']);
    expect(found('S&P 500')).toEqual(['US500']);
    expect(found('标普')).toEqual(['US500']);
    expect(found('白银')).toEqual(['XAGUSD']);
  });

  it('an empty or punctuation-only query finds everything; nonsense finds nothing', () => {
    expect(found('')).toHaveLength(12);
    expect(found('  ')).toHaveLength(12);
    expect(found('/')).toHaveLength(12);
    expect(found('zzz')).toEqual([]);
    expect(found('钻石')).toEqual([]);
  });

  it('folds text the same way on both sides', () => {
    expect(foldForSearch('Pétrole brut WTI')).toBe('petrolebrutwti');
    expect(foldForSearch('Straße')).toBe('strasse');
    expect(foldForSearch('ＵＳ－５００')).toBe('us500');
    expect(foldForSearch('ทองคำ')).toBe('ทองคำ'.normalize('NFKC'));
  });

  it('shows the reader’s language, and the code for a product it does not know', () => {
    expect(productDisplayName(products[8]!, 'zh-CN')).toBe('黄金');
    expect(productDisplayName(products[8]!, 'ja')).toBe('金');
    expect(productDisplayName(products[0]!, 'en')).toBe('Bitcoin');
    expect(productDisplayName({ id: 'NEWCOIN', name: 'NEW/USDT' }, 'de')).toBe('NEW/USDT');
    expect(productMatches({ id: 'NEWCOIN', name: 'NEW/USDT' }, 'new')).toBe(true);
  });
});
