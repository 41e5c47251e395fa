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
