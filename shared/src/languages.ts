/** The ten languages of the product; zh-CN is the default. */
export const languages = [
  'zh-CN',
  'zh-TW',
  'en',
  'ja',
  'th',
  'vi',
  'id',
  'ko',
  'fr',
  'de',
] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'zh-CN';

/**
 * One of the ten languages, from a language tag as i18next resolves it; the default for any
 * other (a page asked in a language the product lacks gets the default's text, as the api would).
 */
export const languageOf = (tag: string): Language =>
  (languages as readonly string[]).includes(tag) ? (tag as Language) : defaultLanguage;
