import 'i18next';
import type common from './locales/common/zh-CN.json';
import type market from './locales/market/zh-CN.json';
import type account from './locales/account/zh-CN.json';
import type orders from './locales/orders/zh-CN.json';
import type wallet from './locales/wallet/zh-CN.json';
import type kyc from './locales/kyc/zh-CN.json';
import type savings from './locales/savings/zh-CN.json';
import type content from './locales/content/zh-CN.json';
import type results from './locales/results/zh-CN.json';
import type alerts from './locales/alerts/zh-CN.json';
import type drawings from './locales/drawings/zh-CN.json';
import type security from './locales/security/zh-CN.json';

/**
 * The merged texts of every feature folder, typed from the default locale; add one line per new
 * folder (see the note in index.ts). locales.test.ts checks the other languages match.
 */
export type Resources = typeof common &
  typeof market &
  typeof account &
  typeof orders &
  typeof wallet &
  typeof kyc &
  typeof savings &
  typeof content &
  typeof alerts &
  typeof results &
  typeof drawings &
  typeof security;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Resources };
  }
}
