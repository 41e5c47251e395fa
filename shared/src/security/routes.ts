import { route } from '../contract/endpoint';
import type * as security from './endpoints';

/** The security endpoints as the clients call them (no zod at run time). */
export const twoFactor = route<typeof security.twoFactorState>('get', '/security/two-factor');
export const enrol = route<typeof security.twoFactorEnrol>('post', '/security/two-factor/enrol');
export const confirm = route<typeof security.twoFactorConfirm>(
  'post',
  '/security/two-factor/confirm',
);
export const disable = route<typeof security.twoFactorDisable>(
  'post',
  '/security/two-factor/disable',
);
export const sessions = route<typeof security.securitySessions>('get', '/security/sessions');
export const endSession = route<typeof security.endSession>('delete', '/security/sessions/:id');
export const endOthers = route<typeof security.endOtherSessions>(
  'post',
  '/security/sessions/end-others',
);
export const phrase = route<typeof security.antiPhishing>('get', '/security/anti-phishing');
export const setPhrase = route<typeof security.setAntiPhishing>('put', '/security/anti-phishing');
export const signInPhrase = route<typeof security.signInPhrase>('post', '/auth/sign-in-phrase');
export const reset = route<typeof security.passwordReset>('post', '/auth/reset');
export const twoFactorReset = route<typeof security.twoFactorReset>(
  'get',
  '/security/two-factor/reset',
);
export const cancelTwoFactorReset = route<typeof security.cancelTwoFactorReset>(
  'delete',
  '/security/two-factor/reset',
);
