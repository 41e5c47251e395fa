import { z } from 'zod';
import {
  contentLangParams,
  opsBannersBody,
  opsHighlightsBody,
  opsMessageBody,
  opsNewsBody,
  opsPageBody,
  pageParams,
} from './model';
import { endpoint } from '../contract/endpoint';
import { contentPageDto, homeContentDto, newsItemDto, opsMessageDto } from '../contract/answers';

/**
 * What operators publish (docs/API.md, Operators), declared once: messages, news, text pages,
 * Home's banners and highlights, and the default content's seed. Which roles reach them is the
 * server's gate's (`gate('admin')`).
 */
const tag = 'Operators';
const caller = 'operator';
const notFound = { 404: ['NOT_FOUND'] } as const;

export const sendMessage = endpoint({
  method: 'post',
  path: '/ops/messages',
  operationId: 'sendMessage',
  summary: 'Send a message to one user, or to all',
  tag,
  caller,
  body: opsMessageBody,
  responses: { 201: opsMessageDto },
  errors: notFound,
});

export const publishNews = endpoint({
  method: 'post',
  path: '/ops/news',
  operationId: 'publishNews',
  summary: "Publish news, or one language's text of an item",
  tag,
  caller,
  body: opsNewsBody,
  responses: { 201: newsItemDto },
  errors: notFound,
});

export const setPage = endpoint({
  method: 'put',
  path: '/ops/pages/:slug',
  operationId: 'setPage',
  summary: "Set one language's text of a page",
  tag,
  caller,
  params: pageParams,
  body: opsPageBody,
  responses: { 200: contentPageDto },
  errors: notFound,
});

// Home's carousel and highlights: a language's whole set at once, in display order.
export const setBanners = endpoint({
  method: 'put',
  path: '/ops/banners/:lang',
  operationId: 'setBanners',
  summary: "Replace one language's Home banners",
  tag,
  caller,
  params: contentLangParams,
  body: opsBannersBody,
  responses: { 200: homeContentDto },
});

export const setHighlights = endpoint({
  method: 'put',
  path: '/ops/highlights/:lang',
  operationId: 'setHighlights',
  summary: "Replace one language's Home highlights",
  tag,
  caller,
  params: contentLangParams,
  body: opsHighlightsBody,
  responses: { 200: homeContentDto },
});

// A scaled deployment is never seeded by a first start: this writes the same default content
// (Home's banners and highlights above all, which have no other way in) once per database.
export const seedContent = endpoint({
  method: 'post',
  path: '/ops/content/seed',
  operationId: 'seedContent',
  summary:
    'Write the default banners, highlights, news and pages once (seeded: whether this call did)',
  tag,
  caller,
  responses: { 200: z.object({ seeded: z.boolean() }) },
});
