import { z } from 'zod';
import {
  langQuery,
  messageListQuery,
  messageParams,
  newsListQuery,
  newsParams,
  pageParams,
} from './model';
import { endpoint } from '../contract/endpoint';
import {
  contentPageDto,
  homeContentDto,
  messageDto,
  newsItemDto,
  newsSummaryDto,
  pageOf,
} from '../contract/answers';

/**
 * Public content (text pages, news, Home's banners) and the user's messages, declared once.
 * `lang` is one of the ten languages, zh-CN when left out.
 */
const tag = 'Content';
const notFound = { 404: ['NOT_FOUND'] } as const;

export const page = endpoint({
  method: 'get',
  path: '/pages/:slug',
  operationId: 'page',
  summary: 'A text page (about, privacy, privacy-2, rules, …)',
  tag: 'Accounts',
  params: pageParams,
  query: langQuery,
  responses: { 200: contentPageDto },
  errors: notFound,
});

export const news = endpoint({
  method: 'get',
  path: '/news',
  operationId: 'news',
  summary: 'News, newest first',
  tag,
  query: newsListQuery,
  responses: { 200: pageOf(newsSummaryDto) },
});

export const newsItem = endpoint({
  method: 'get',
  path: '/news/:id',
  operationId: 'newsItem',
  summary: 'One news item',
  tag,
  params: newsParams,
  query: langQuery,
  responses: { 200: newsItemDto },
  errors: notFound,
});

export const home = endpoint({
  method: 'get',
  path: '/content/home',
  operationId: 'home',
  summary: 'What Home shows besides the products',
  tag,
  query: langQuery,
  responses: { 200: homeContentDto },
});

export const messages = endpoint({
  method: 'get',
  path: '/messages',
  operationId: 'messages',
  summary: "The user's messages and the broadcasts",
  tag,
  caller: 'user',
  query: messageListQuery,
  responses: { 200: pageOf(messageDto) },
});

export const unreadCount = endpoint({
  method: 'get',
  path: '/messages/unread-count',
  operationId: 'unreadCount',
  summary: 'How many messages are unread',
  tag,
  caller: 'user',
  responses: { 200: z.object({ count: z.int() }) },
});

export const readAllMessages = endpoint({
  method: 'post',
  path: '/messages/read-all',
  operationId: 'readAllMessages',
  summary: 'Mark every message read',
  tag,
  caller: 'user',
  responses: { 204: null },
});

export const readMessage = endpoint({
  method: 'post',
  path: '/messages/:id/read',
  operationId: 'readMessage',
  summary: 'Mark one message read',
  tag,
  caller: 'user',
  params: messageParams,
  responses: { 204: null },
  errors: notFound,
});
