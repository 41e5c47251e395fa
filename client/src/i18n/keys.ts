import type common from './locales/common/zh-CN.json';

/** The title of a page (`pages.*` in locales/common). */
export type PageTitleKey = `pages.${keyof (typeof common)['pages']}`;
