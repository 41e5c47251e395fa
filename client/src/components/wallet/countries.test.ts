import { describe, expect, it } from 'vitest';
import { countryList, countryName, searchCountries } from './countries';

describe('countries', () => {
  it('names all 249 codes in the language', () => {
    const zh = countryList('zh-CN');
    expect(zh).toHaveLength(249);
    expect(countryName('CN', 'zh-CN')).toBe('中国');
    expect(countryName('DE', 'en')).toBe('Germany');
    expect(countryName('DE', 'de')).toBe('Deutschland');
  });

  it('searches by local name, English name and code, ignoring case and accents', () => {
    const de = countryList('de');
    expect(searchCountries(de, 'deutsch').map((c) => c.code)).toContain('DE');
    expect(searchCountries(de, 'germany').map((c) => c.code)).toContain('DE');
    expect(searchCountries(countryList('fr'), 'etats-unis').map((c) => c.code)).toContain('US');
    expect(searchCountries(countryList('zh-CN'), 'cn')[0]?.code).toBe('CN');
    expect(searchCountries(de, '  ')).toHaveLength(249);
    expect(searchCountries(de, 'zzzz')).toEqual([]);
  });
});
