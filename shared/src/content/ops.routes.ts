import { route } from '../contract/endpoint';
import type * as ops from './ops.endpoints';

/** What operators publish, as the console calls it (no zod at run time). */
export const sendMessage = route<typeof ops.sendMessage>('post', '/ops/messages');
export const publishNews = route<typeof ops.publishNews>('post', '/ops/news');
export const setPage = route<typeof ops.setPage>('put', '/ops/pages/:slug');
export const setBanners = route<typeof ops.setBanners>('put', '/ops/banners/:lang');
