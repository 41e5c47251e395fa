import type zhCN from './locales/zh-CN.json';

/** The title of a page (`pages.*` in the locale files). */
export type PageTitleKey = `pages.${keyof (typeof zhCN)['pages']}`;
