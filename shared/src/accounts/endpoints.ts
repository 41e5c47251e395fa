import { z } from 'zod';
import {
  changePasswordBody,
  changeTradePasswordBody,
  loginBody,
  registerBody,
  registerCheckBody,
} from './model';
import { endpoint } from '../contract/endpoint';
import { appInfoDto, loginAnswerDto, registeredDto, userDto } from '../contract/answers';

/** What the client needs first, registration, sessions and the user's passwords, declared once. */
const tag = 'Accounts';

export const appInfo = endpoint({
  method: 'get',
  path: '/app-info',
  operationId: 'appInfo',
  summary: 'What the client needs first',
  tag,
  responses: { 200: appInfoDto },
});

export const registerCheck = endpoint({
  method: 'post',
  path: '/auth/register/check',
  operationId: 'registerCheck',
  summary: 'Check step 1 of registration',
  tag,
  body: registerCheckBody,
  responses: { 200: z.object({ ok: z.literal(true) }) },
  errors: { 400: ['INVITE_INVALID'], 409: ['ACCOUNT_TAKEN'], 429: ['RATE_LIMITED'] },
});

export const register = endpoint({
  method: 'post',
  path: '/auth/register',
  operationId: 'register',
  summary: 'Open an account',
  tag,
  body: registerBody,
  responses: { 201: registeredDto },
  errors: {
    400: ['TERMS_NOT_ACCEPTED', 'INVITE_INVALID', 'PASSWORD_MISMATCH', 'TRADE_PASSWORD_MISMATCH'],
    409: ['ACCOUNT_TAKEN'],
    429: ['RATE_LIMITED'],
  },
});

export const login = endpoint({
  method: 'post',
  path: '/auth/login',
  operationId: 'login',
  summary: 'Log in: a session token',
  tag,
  body: loginBody,
  responses: { 200: loginAnswerDto },
  errors: {
    401: ['BAD_CREDENTIALS', 'TWO_FACTOR_REQUIRED', 'TWO_FACTOR_CODE_WRONG'],
    403: ['ACCOUNT_FROZEN'],
    429: ['TOO_MANY_ATTEMPTS'],
  },
});

export const logout = endpoint({
  method: 'post',
  path: '/auth/logout',
  operationId: 'logout',
  summary: 'End the session',
  tag,
  caller: 'user',
  responses: { 204: null },
});

export const me = endpoint({
  method: 'get',
  path: '/me',
  operationId: 'me',
  summary: 'The signed-in user',
  tag,
  caller: 'user',
  responses: { 200: userDto },
});

export const changePassword = endpoint({
  method: 'post',
  path: '/me/password',
  operationId: 'changePassword',
  summary: 'Change the login password',
  tag,
  caller: 'user',
  body: changePasswordBody,
  responses: { 204: null },
  errors: {
    400: ['PASSWORD_MISMATCH', 'TWO_FACTOR_CODE_WRONG'],
    403: ['WRONG_PASSWORD', 'TWO_FACTOR_REQUIRED'],
    429: ['TOO_MANY_ATTEMPTS'],
  },
});

export const changeTradePassword = endpoint({
  method: 'post',
  path: '/me/trade-password',
  operationId: 'changeTradePassword',
  summary: 'Change the transaction password',
  tag,
  caller: 'user',
  body: changeTradePasswordBody,
  responses: { 204: null },
  errors: {
    400: ['TRADE_PASSWORD_MISMATCH', 'TWO_FACTOR_CODE_WRONG'],
    403: ['WRONG_TRADE_PASSWORD', 'TWO_FACTOR_REQUIRED'],
    429: ['TOO_MANY_ATTEMPTS'],
  },
});
