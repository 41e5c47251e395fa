import type { KycBody, KycState } from '@shared/kyc';
import * as kyc from '@shared/kyc.routes';
import { call, upload } from './client';
import { fileName, type UploadProgress } from './wallet';

/** Identity verification (API.md, Identity). */

export function getKyc(signal?: AbortSignal): Promise<KycState> {
  return call(kyc.getKyc, {}, { signal });
}

/** Sends the details and both ID photos; 409 INVALID_STATE while one is under review or verified. */
export function submitKyc(
  fields: KycBody,
  photos: { front: Blob; back: Blob },
  options: UploadProgress = {},
): Promise<KycState> {
  const form = new FormData();
  form.append('name', fields.name);
  form.append('idNumber', fields.idNumber);
  form.append('nationality', fields.nationality);
  form.append('front', photos.front, fileName('front', photos.front));
  form.append('back', photos.back, fileName('back', photos.back));
  return upload('/kyc', form, options);
}
