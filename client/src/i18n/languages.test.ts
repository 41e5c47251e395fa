import { describe, expect, it } from 'vitest';
import { detectLanguage, languages, matchLanguage } from './languages';

describe('matchLanguage', () => {
  it('splits Chinese into traditional and simplified', () => {
    expect(matchLanguage('zh-TW')).toBe('zh-TW');
    expect(matchLanguage('zh-HK')).toBe('zh-TW');
    expect(matchLanguage('zh-Hant-HK')).toBe('zh-TW');
    expect(matchLanguage('zh-MO')).toBe('zh-TW');
    expect(matchLanguage('zh')).toBe('zh-CN');
    expect(matchLanguage('zh-CN')).toBe('zh-CN');
    expect(matchLanguage('zh-SG')).toBe('zh-CN');
    expect(matchLanguage('zh-Hans')).toBe('zh-CN');
    expect(matchLanguage('zh_tw')).toBe('zh-TW');
  });

  it('matches other languages by their primary subtag', () => {
    expect(matchLanguage('en-US')).toBe('en');
    expect(matchLanguage('EN-gb')).toBe('en');
    expect(matchLanguage('fr-CA')).toBe('fr');
    expect(matchLanguage('de-AT')).toBe('de');
    expect(matchLanguage('ja')).toBe('ja');
    expect(matchLanguage('ko-KR')).toBe('ko');
    expect(matchLanguage('th-TH')).toBe('th');
    expect(matchLanguage('vi-VN')).toBe('vi');
    expect(matchLanguage('id-ID')).toBe('id');
  });

  it('refuses languages outside the ten', () => {
    expect(matchLanguage('pt-BR')).toBeNull();
    expect(matchLanguage('es')).toBeNull();
    expect(matchLanguage('')).toBeNull();
    // "in" is the old code for Indonesian; the primary subtag must be exact.
    expect(matchLanguage('ind')).toBeNull();
  });
});

describe('detectLanguage', () => {
  it('prefers a valid stored choice over the browser', () => {
    expect(detectLanguage('ko', ['en-US'])).toBe('ko');
    expect(detectLanguage('zh-TW', ['de'])).toBe('zh-TW');
  });

  it('ignores a stored value that is not one of the ten', () => {
    expect(detectLanguage('xx', ['fr-FR'])).toBe('fr');
    expect(detectLanguage('en-US', ['ja'])).toBe('ja');
  });

  it('takes the first browser language that maps onto the ten', () => {
    expect(detectLanguage(null, ['es-ES', 'pt', 'de-CH', 'en'])).toBe('de');
    expect(detectLanguage(undefined, ['zh-HK', 'en'])).toBe('zh-TW');
  });

  it('falls back to simplified Chinese', () => {
    expect(detectLanguage(null, [])).toBe('zh-CN');
    expect(detectLanguage(null, ['es', 'ru'])).toBe('zh-CN');
  });

  it('offers exactly ten languages with zh-CN first', () => {
    expect(languages).toHaveLength(10);
    expect(languages[0]).toBe('zh-CN');
  });
});
