import type { ChartDrawing, NewDrawing } from '@shared/drawings/model';
import * as drawings from '@shared/drawings/routes';
import { call } from './client';

export type { ChartDrawing, NewDrawing };

/** The user's drawings on a product's chart, the oldest first (the same on every device). */
export async function getDrawings(product: string): Promise<ChartDrawing[]> {
  return (await call(drawings.list, { query: { product } })).items;
}

/** Stores a drawing; refused with DRAWING_LIMIT past the cap, DRAWING_EXISTS for one already there. */
export function addDrawing(body: NewDrawing): Promise<ChartDrawing> {
  return call(drawings.add, { body });
}

export function removeDrawing(id: string): Promise<void> {
  return call(drawings.remove, { params: { id } });
}

export function clearDrawings(product: string): Promise<void> {
  return call(drawings.clear, { query: { product } });
}
