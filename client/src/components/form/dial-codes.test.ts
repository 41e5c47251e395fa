import { describe, expect, it } from 'vitest';
import { phoneSchema } from '@shared/accounts/model';
import { countryCodes } from '@shared/countries';
import { defaultDialCountry, dialCodes, fullPhone, phoneInput } from './dial-codes';

describe('phone country codes', () => {
  it('lists real country codes with 1-3 digit calling codes', () => {
    for (const [country, code] of Object.entries(dialCodes)) {
      expect(countryCodes.has(country), country).toBe(true);
      expect(code).toMatch(/^[1-9]\d{0,2}$/);
    }
  });

  it('starts on the country of the language, or the region the browser names', () => {
    expect(defaultDialCountry('zh-CN')).toBe('CN');
    expect(defaultDialCountry('zh-TW', ['zh-HK'])).toBe('TW');
    expect(defaultDialCountry('ja')).toBe('JP');
    expect(defaultDialCountry('en')).toBe('US');
    expect(defaultDialCountry('en', ['en-GB', 'en'])).toBe('GB');
    expect(defaultDialCountry('de', ['de-AT'])).toBe('AT');
    expect(defaultDialCountry('fr', ['en-GB'])).toBe('FR');
  });

  it('joins the code and the national number, keeping a whole number as typed', () => {
    expect(fullPhone('CN', '138 0013 8000')).toBe('+8613800138000');
    expect(fullPhone('GB', '07700 900123')).toBe('+447700900123');
    expect(fullPhone('JP', '+8613800138000')).toBe('+8613800138000');
    expect(phoneInput('+86-138 0013')).toBe('+861380013');
    expect(phoneInput('1+2')).toBe('12');
    expect(phoneSchema.safeParse(fullPhone('TH', '0812345678')).success).toBe(true);
  });
});
