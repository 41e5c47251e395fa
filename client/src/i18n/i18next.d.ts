import 'i18next';
import type zhCN from './locales/zh-CN.json';

// Keys are checked at compile time against the default locale; locales.test.ts checks that
// every other locale has exactly the same keys.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN };
  }
}
