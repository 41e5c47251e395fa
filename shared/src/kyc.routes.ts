import { route } from './contract/endpoint';
import type * as kyc from './kyc.endpoints';

/** The identity check's JSON endpoint as the app calls it (no zod at run time). */
export const getKyc = route<typeof kyc.kyc>('get', '/kyc');
