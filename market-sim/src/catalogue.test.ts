import { describe, it, expect } from 'vitest';
import { languages } from '@shared/languages';
import { productNames } from '@shared/product-names';
import { defaultCatalogue, findProduct } from './catalogue';

const ids = [
  'BTCUSDT',
  'ETHUSDT',
  'SOLUSDT',
  'XRPUSDT',
  'DOGEUSDT',
  'EURUSD',
  'GBPUSD',
  'USDJPY',
  'XAUUSD',
  'XAGUSD',
  'WTIUSD',
  'US500',
];

describe('defaultCatalogue', () => {
  it('names every product in all ten languages, and names nothing else', () => {
    expect(Object.keys(productNames).sort()).toEqual([...ids].sort());
    for (const p of defaultCatalogue)
      for (const lang of languages) expect(productNames[p.id]?.[lang]?.trim()).toBeTruthy();
    // CJK names where the language writes them so; Latin script elsewhere but Thai.
    const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
    for (const p of defaultCatalogue) {
      const n = productNames[p.id]!;
      for (const lang of ['en', 'vi', 'id', 'fr', 'de'] as const) expect(n[lang]).not.toMatch(cjk);
      if (p.id !== 'US500')
        for (const lang of ['zh-CN', 'zh-TW', 'ja', 'ko'] as const) expect(n[lang]).toMatch(cjk);
    }
  });

  it('has the twelve products, unique, in display order', () => {
    expect(defaultCatalogue.map((p) => p.id)).toEqual(ids);
    expect(new Set(defaultCatalogue.map((p) => p.id)).size).toBe(12);
  });

  it('puts each product in its category and calendar', () => {
    const byId = (id: string) => findProduct(id)!;
    for (const id of ids.slice(0, 5)) {
      expect(byId(id)).toMatchObject({ category: 'crypto', calendar: 'crypto' });
    }
    for (const id of ['EURUSD', 'GBPUSD', 'USDJPY']) {
      expect(byId(id)).toMatchObject({ category: 'forex', calendar: 'fx' });
    }
    for (const id of ['XAUUSD', 'XAGUSD']) {
      expect(byId(id)).toMatchObject({ category: 'metals', calendar: 'fx' });
    }
    expect(byId('WTIUSD')).toMatchObject({ category: 'energy', calendar: 'fx', name: 'WTI Crude' });
    expect(byId('US500')).toMatchObject({ category: 'index', calendar: 'index', name: 'US500' });
    expect(byId('BTCUSDT').name).toBe('BTC/USDT');
    expect(byId('EURUSD').name).toBe('EUR/USD');
    expect(byId('XAUUSD').name).toBe('XAU/USD');
  });

  it.each(defaultCatalogue)(
    '$id: start price has exactly `precision` decimals, on the tick',
    (p) => {
      expect(Number.isInteger(p.precision) && p.precision >= 0).toBe(true);
      expect(Number.isInteger(p.tickSize) && p.tickSize >= 1).toBe(true);
      const m = /^(\d+)(?:\.(\d+))?$/.exec(p.startPrice);
      expect(m).not.toBeNull();
      expect((m![2] ?? '').length).toBe(p.precision);
      const units = Number(`${m![1]}${m![2] ?? ''}`);
      expect(units).toBeGreaterThan(0);
      expect(units % p.tickSize).toBe(0);
    },
  );

  it.each(defaultCatalogue)('$id: sane model and order parameters', (p) => {
    expect(p.annualVol).toBeGreaterThan(0);
    expect(p.annualVol).toBeLessThanOrEqual(1);
    expect(p.jumpsPerDay).toBeGreaterThanOrEqual(0);
    expect(p.typicalLots).toBeGreaterThanOrEqual(1);
    expect(p.lotSize).toMatch(/^\d+(\.\d+)?$/);
    expect(Number(p.lotSize)).toBeGreaterThan(0);
    expect(p.durations).toEqual([
      { seconds: 30, rate: '0.80' },
      { seconds: 60, rate: '0.85' },
      { seconds: 120, rate: '0.88' },
      { seconds: 300, rate: '0.90' },
    ]);
    expect(p.minStake).toBe(1000);
    expect(p.maxStake).toBe(5000000);
  });

  it('gives each product its own duration ladder object', () => {
    const ladders = new Set(defaultCatalogue.map((p) => p.durations));
    expect(ladders.size).toBe(12);
  });
});

describe('findProduct', () => {
  it('finds by exact id and returns undefined otherwise', () => {
    expect(findProduct('XAGUSD')?.name).toBe('XAG/USD');
    expect(findProduct('xagusd')).toBeUndefined();
    expect(findProduct('NOPE')).toBeUndefined();
  });

  it('looks in a given catalogue', () => {
    const only = [defaultCatalogue[0]!];
    expect(findProduct('BTCUSDT', only)).toBe(defaultCatalogue[0]);
    expect(findProduct('ETHUSDT', only)).toBeUndefined();
  });
});
