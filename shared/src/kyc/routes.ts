import { route } from '../contract/endpoint';
import type * as kyc from './endpoints';

/** The identity check's endpoints as the app calls them (no zod at run time). */
export const getKyc = route<typeof kyc.kyc>('get', '/kyc');
export const submitKyc = route<typeof kyc.submitKyc>('post', '/kyc');
