import { route } from '../contract/endpoint';
import type * as drawings from './endpoints';

/** The drawings' endpoints as the clients call them (no zod at run time). */
export const list = route<typeof drawings.drawings>('get', '/drawings');
export const add = route<typeof drawings.addDrawing>('post', '/drawings');
export const remove = route<typeof drawings.removeDrawing>('delete', '/drawings/:id');
export const clear = route<typeof drawings.clearDrawings>('delete', '/drawings');
