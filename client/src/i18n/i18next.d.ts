import 'i18next';
import type common from './locales/common/zh-CN.json';
import type market from './locales/market/zh-CN.json';
import type account from './locales/account/zh-CN.json';

/**
 * The merged texts of every feature folder, typed from the default locale; add one line per new
 * folder (see the note in index.ts). locales.test.ts checks the other languages match.
 */
export type Resources = typeof common & typeof market & typeof account;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Resources };
  }
}
