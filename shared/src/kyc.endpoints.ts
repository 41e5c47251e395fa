import { endpoint } from './contract/endpoint';
import { kycStateDto } from './dto';

/**
 * The user's identity check, declared once (its submission with the photos is a multipart form,
 * still declared by its route; the operators' queue is in reviews.endpoints.ts).
 */
export const kyc = endpoint({
  method: 'get',
  path: '/kyc',
  operationId: 'kyc',
  summary: 'The identity check',
  tag: 'Identity and savings',
  caller: 'user',
  responses: { 200: kycStateDto },
});
