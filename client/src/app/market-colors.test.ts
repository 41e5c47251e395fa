import { describe, expect, it } from 'vitest';
import {
  defaultMarketColors,
  marketColorsStorageKey,
  parseMarketColors,
  readMarketColors,
  resolveMarketColors,
  writeMarketColors,
} from './market-colors';
import { languages } from '@client/i18n/languages';

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
  };
}

describe('market colours', () => {
  it('are red-up by default for zh-CN, zh-TW and ko, green-up for the others', () => {
    const redUp = languages.filter((lang) => defaultMarketColors(lang) === 'red-up');
    expect(redUp.sort()).toEqual(['ko', 'zh-CN', 'zh-TW']);
  });

  it('follow a stored choice over the language', () => {
    expect(resolveMarketColors('green-up', 'zh-CN')).toBe('green-up');
    expect(resolveMarketColors('red-up', 'en')).toBe('red-up');
    expect(resolveMarketColors(null, 'ko')).toBe('red-up');
    expect(resolveMarketColors(null, 'de')).toBe('green-up');
  });

  it('read anything unknown, absent or unreadable as no choice', () => {
    expect(parseMarketColors('red-up')).toBe('red-up');
    expect(parseMarketColors('red')).toBeNull();
    expect(parseMarketColors(null)).toBeNull();
    expect(readMarketColors(memoryStorage({ [marketColorsStorageKey]: 'green-up' }))).toBe(
      'green-up',
    );
    expect(readMarketColors(undefined)).toBeNull();
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readMarketColors(blocked)).toBeNull();
    expect(() => writeMarketColors(blocked, 'red-up')).not.toThrow();
  });

  it('store the choice under its key', () => {
    const storage = memoryStorage();
    writeMarketColors(storage, 'red-up');
    expect(storage.map.get(marketColorsStorageKey)).toBe('red-up');
  });
});
