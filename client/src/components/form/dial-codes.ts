/**
 * Country calling codes for the phone at registration (ITU-T E.164). The common countries of the
 * app's ten languages and their neighbours; any other number is typed whole, starting with +.
 */
export const dialCodes: Readonly<Record<string, string>> = {
  CN: '86',
  HK: '852',
  MO: '853',
  TW: '886',
  JP: '81',
  KR: '82',
  TH: '66',
  VN: '84',
  ID: '62',
  MY: '60',
  SG: '65',
  PH: '63',
  KH: '855',
  LA: '856',
  MM: '95',
  MN: '976',
  IN: '91',
  PK: '92',
  BD: '880',
  LK: '94',
  NP: '977',
  AU: '61',
  NZ: '64',
  US: '1',
  CA: '1',
  MX: '52',
  BR: '55',
  AR: '54',
  CL: '56',
  CO: '57',
  PE: '51',
  GB: '44',
  IE: '353',
  DE: '49',
  AT: '43',
  CH: '41',
  LI: '423',
  FR: '33',
  BE: '32',
  NL: '31',
  LU: '352',
  MC: '377',
  IT: '39',
  ES: '34',
  PT: '351',
  SE: '46',
  NO: '47',
  DK: '45',
  FI: '358',
  PL: '48',
  CZ: '420',
  HU: '36',
  RO: '40',
  GR: '30',
  TR: '90',
  UA: '380',
  AE: '971',
  SA: '966',
  QA: '974',
  IL: '972',
  EG: '20',
  MA: '212',
  ZA: '27',
  NG: '234',
  KE: '254',
  SN: '221',
  CI: '225',
  CM: '237',
};

/** The country each language starts on; a region in the browser's language (en-GB) wins. */
const byLanguage: Readonly<Record<string, string>> = {
  'zh-CN': 'CN',
  'zh-TW': 'TW',
  ja: 'JP',
  ko: 'KR',
  th: 'TH',
  vi: 'VN',
  id: 'ID',
  de: 'DE',
  fr: 'FR',
  en: 'US',
};

/** The country preselected for `lang`, from the browser's own languages when they name one. */
export function defaultDialCountry(lang: string, browser: readonly string[] = []): string {
  const base = lang.split('-')[0];
  for (const tag of browser) {
    const [language, region] = tag.split('-');
    if (language === base && region && region.toUpperCase() in dialCodes && base !== 'zh')
      return region.toUpperCase();
  }
  return byLanguage[lang] ?? byLanguage[base ?? ''] ?? 'CN';
}

/** What the phone input keeps: digits, and a + only in front (a whole international number). */
export const phoneInput = (value: string): string => {
  const plus = value.trimStart().startsWith('+');
  return (plus ? '+' : '') + value.replace(/\D/g, '').slice(0, 15);
};

/**
 * The number sent: typed whole (`+…`) as it is, else the country's code before the national
 * number without its trunk 0 (UK 07700 900123 → +447700900123).
 */
export function fullPhone(country: string, input: string): string {
  const typed = phoneInput(input);
  if (typed.startsWith('+')) return typed;
  return `+${dialCodes[country] ?? ''}${typed.replace(/^0+/, '')}`;
}
