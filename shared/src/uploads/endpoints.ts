import { z } from 'zod';
import { endpoint } from '../contract/endpoint';

/**
 * An uploaded image (a deposit's screenshot, an ID photo), declared once: its bytes to their
 * owner or an operator (404 to anyone else), with the type of the stored bytes.
 */
export const upload = endpoint({
  method: 'get',
  path: '/uploads/:id',
  operationId: 'upload',
  summary: 'An uploaded image, to its owner or an operator',
  tag: 'Content',
  caller: 'userOrOperator',
  params: z.object({ id: z.string() }),
  responses: { 200: { media: 'image/*', description: 'The image' } },
  errors: { 404: ['NOT_FOUND'] },
});
