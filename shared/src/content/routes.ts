import { route } from '../contract/endpoint';
import type * as content from './endpoints';

/** The content and messages endpoints as the clients call them (no zod at run time). */
export const page = route<typeof content.page>('get', '/pages/:slug');
export const news = route<typeof content.news>('get', '/news');
export const newsItem = route<typeof content.newsItem>('get', '/news/:id');
export const home = route<typeof content.home>('get', '/content/home');
export const messages = route<typeof content.messages>('get', '/messages');
export const unreadCount = route<typeof content.unreadCount>('get', '/messages/unread-count');
export const readAllMessages = route<typeof content.readAllMessages>('post', '/messages/read-all');
export const readMessage = route<typeof content.readMessage>('post', '/messages/:id/read');
