import { endpoint } from '../contract/endpoint';
import { kycStateDto } from '../contract/answers';
import { imagePart } from '../uploads/values';
import { kycBody } from './model';

/**
 * The user's identity check, declared once: its state, and its submission, a multipart form with
 * the two photos of the ID (the operators' queue is in operators/reviews.endpoints.ts).
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

export const submitKyc = endpoint({
  method: 'post',
  path: '/kyc',
  operationId: 'submitKyc',
  summary: 'Submit an identity check with photos of the ID',
  tag: 'Identity and savings',
  caller: 'user',
  form: {
    fields: kycBody,
    files: [
      { name: 'front', count: 1, required: true, ...imagePart },
      { name: 'back', count: 1, required: true, ...imagePart },
    ],
  },
  responses: { 201: kycStateDto },
  errors: { 409: ['INVALID_STATE'] },
});
