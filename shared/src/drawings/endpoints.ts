import { endpoint } from '../contract/endpoint';
import { chartDrawingDto, chartDrawingsDto } from '../contract/answers';
import { drawingIdParam, drawingsQuery, newDrawingBody } from './model';

/**
 * Chart drawings (docs/API.md, Drawings): the signed-in user's lines over a product's chart,
 * the same on every device (a `drawings` user event tells the others to read them again).
 */
const tag = 'Drawings';

export const drawings = endpoint({
  method: 'get',
  path: '/drawings',
  operationId: 'drawings',
  summary: "The user's drawings on a product's chart, the oldest first",
  tag,
  caller: 'user',
  query: drawingsQuery,
  responses: { 200: chartDrawingsDto },
  errors: { 404: ['NOT_FOUND'] },
});

export const addDrawing = endpoint({
  method: 'post',
  path: '/drawings',
  operationId: 'addDrawing',
  summary: 'Draw a horizontal line (one point) or a trend line (two points) on a product’s chart',
  tag,
  caller: 'user',
  body: newDrawingBody,
  responses: { 201: chartDrawingDto },
  errors: { 404: ['NOT_FOUND'], 409: ['DRAWING_LIMIT', 'DRAWING_EXISTS'] },
});

export const removeDrawing = endpoint({
  method: 'delete',
  path: '/drawings/:id',
  operationId: 'removeDrawing',
  summary: 'Remove one of the user’s drawings (someone else’s or one already removed: 404)',
  tag,
  caller: 'user',
  params: drawingIdParam,
  responses: { 204: null },
  errors: { 404: ['NOT_FOUND'] },
});

export const clearDrawings = endpoint({
  method: 'delete',
  path: '/drawings',
  operationId: 'clearDrawings',
  summary: 'Remove all the user’s drawings on a product’s chart (none: no change)',
  tag,
  caller: 'user',
  query: drawingsQuery,
  responses: { 204: null },
  errors: { 404: ['NOT_FOUND'] },
});
