import { z } from 'zod';
import { endpoint } from '../contract/endpoint';
import {
  antiPhishingDto,
  pendingTwoFactorResetDto,
  recoveryCodesDto,
  securitySessionsDto,
  twoFactorEnrolmentDto,
  twoFactorStateDto,
} from '../contract/answers';
import { passwordResetBody } from '../accounts/model';
import {
  antiPhishingBody,
  sessionIdParam,
  signInPhraseBody,
  twoFactorCodeBody,
  twoFactorEnrolBody,
} from './model';

/**
 * The account's second factor (docs/API.md, Security): enrol (a secret, pending), confirm with a
 * first code (on, with ten recovery codes), disable with a code.
 */
const tag = 'Security';

export const twoFactorState = endpoint({
  method: 'get',
  path: '/security/two-factor',
  operationId: 'twoFactorState',
  summary: 'Whether two-factor sign-in is on',
  tag,
  caller: 'user',
  responses: { 200: twoFactorStateDto },
});

export const twoFactorEnrol = endpoint({
  method: 'post',
  path: '/security/two-factor/enrol',
  operationId: 'twoFactorEnrol',
  summary: 'Start two-factor sign-in: a new secret, pending until a code confirms it',
  tag,
  caller: 'user',
  body: twoFactorEnrolBody,
  responses: { 200: twoFactorEnrolmentDto },
  errors: { 403: ['WRONG_TRADE_PASSWORD'], 409: ['TWO_FACTOR_ON'], 429: ['TOO_MANY_ATTEMPTS'] },
});

export const twoFactorConfirm = endpoint({
  method: 'post',
  path: '/security/two-factor/confirm',
  operationId: 'twoFactorConfirm',
  summary: 'Turn two-factor sign-in on with a first code: ten recovery codes, shown once',
  tag,
  caller: 'user',
  body: twoFactorCodeBody,
  responses: { 200: recoveryCodesDto },
  errors: {
    400: ['TWO_FACTOR_CODE_WRONG'],
    409: ['TWO_FACTOR_ON', 'TWO_FACTOR_OFF'],
    429: ['TOO_MANY_ATTEMPTS'],
  },
});

export const twoFactorDisable = endpoint({
  method: 'post',
  path: '/security/two-factor/disable',
  operationId: 'twoFactorDisable',
  summary: 'Turn two-factor sign-in off with a code (or a recovery code)',
  tag,
  caller: 'user',
  body: twoFactorCodeBody,
  responses: { 204: null },
  errors: { 400: ['TWO_FACTOR_CODE_WRONG'], 409: ['TWO_FACTOR_OFF'], 429: ['TOO_MANY_ATTEMPTS'] },
});

export const securitySessions = endpoint({
  method: 'get',
  path: '/security/sessions',
  operationId: 'securitySessions',
  summary: "The user's signed-in sessions, the newest first, this one marked",
  tag,
  caller: 'user',
  responses: { 200: securitySessionsDto },
});

export const endSession = endpoint({
  method: 'delete',
  path: '/security/sessions/:id',
  operationId: 'endSession',
  summary: 'Sign one session out (its sockets too, on every gateway)',
  tag,
  caller: 'user',
  params: sessionIdParam,
  responses: { 204: null },
  errors: { 404: ['NOT_FOUND'] },
});

export const endOtherSessions = endpoint({
  method: 'post',
  path: '/security/sessions/end-others',
  operationId: 'endOtherSessions',
  summary: 'Sign every other session out (their sockets too, on every gateway)',
  tag,
  caller: 'user',
  responses: { 200: z.object({ ended: z.int() }) },
});

export const antiPhishing = endpoint({
  method: 'get',
  path: '/security/anti-phishing',
  operationId: 'antiPhishing',
  summary: "The user's anti-phishing phrase",
  tag,
  caller: 'user',
  responses: { 200: antiPhishingDto },
});

export const setAntiPhishing = endpoint({
  method: 'put',
  path: '/security/anti-phishing',
  operationId: 'setAntiPhishing',
  summary: 'Set or remove the anti-phishing phrase (with the transaction password)',
  tag,
  caller: 'user',
  body: antiPhishingBody,
  responses: { 200: antiPhishingDto },
  errors: { 403: ['WRONG_TRADE_PASSWORD'], 429: ['TOO_MANY_ATTEMPTS'] },
});

export const signInPhrase = endpoint({
  method: 'post',
  path: '/auth/sign-in-phrase',
  operationId: 'signInPhrase',
  summary:
    'The anti-phishing phrase for the sign-in page: only to a device that signed in to the account',
  tag,
  body: signInPhraseBody,
  responses: { 200: antiPhishingDto },
  errors: { 429: ['RATE_LIMITED'] },
});

export const passwordReset = endpoint({
  method: 'post',
  path: '/auth/reset',
  operationId: 'passwordReset',
  summary:
    'Reset a forgotten login password with a two-factor code and the transaction password; every session ends',
  tag,
  body: passwordResetBody,
  responses: { 204: null },
  errors: {
    400: ['PASSWORD_MISMATCH'],
    401: ['BAD_CREDENTIALS', 'TWO_FACTOR_CODE_WRONG'],
    409: ['TWO_FACTOR_OFF'],
    429: ['TOO_MANY_ATTEMPTS'],
  },
});

export const twoFactorReset = endpoint({
  method: 'get',
  path: '/security/two-factor/reset',
  operationId: 'twoFactorReset',
  summary:
    'A pending support reset of two-factor sign-in (asked for by support, effective a delay after its approval), or null',
  tag,
  caller: 'user',
  responses: { 200: pendingTwoFactorResetDto },
});

export const cancelTwoFactorReset = endpoint({
  method: 'delete',
  path: '/security/two-factor/reset',
  operationId: 'cancelTwoFactorReset',
  summary: 'Call a pending support reset of two-factor sign-in off',
  tag,
  caller: 'user',
  responses: { 204: null },
  errors: { 409: ['TWO_FACTOR_RESET_NONE'] },
});
