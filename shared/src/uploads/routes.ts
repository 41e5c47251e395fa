import { route } from '../contract/endpoint';
import type * as uploads from './endpoints';

/** The uploads' endpoint as the clients call it (no zod at run time). */
export const upload = route<typeof uploads.upload>('get', '/uploads/:id');
