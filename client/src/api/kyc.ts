import type { KycBody, KycState } from '@shared/kyc/model';
import * as kyc from '@shared/kyc/routes';
import { call, upload } from './client';
import type { UploadProgress } from './wallet';

/** Identity verification (API.md, Identity). */

export function getKyc(signal?: AbortSignal): Promise<KycState> {
  return call(kyc.getKyc, {}, { signal });
}

/** Sends the details and both ID photos; 409 INVALID_STATE while one is under review or verified. */
export function submitKyc(
  fields: KycBody,
  photos: { front: Blob; back: Blob },
  options: UploadProgress = {},
) {
  return upload(kyc.submitKyc, fields, photos, options);
}
