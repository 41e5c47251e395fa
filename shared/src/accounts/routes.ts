import { route } from '../contract/endpoint';
import type * as accounts from './endpoints';

/** Registration, sessions and passwords as the clients call them (no zod at run time). */
export const appInfo = route<typeof accounts.appInfo>('get', '/app-info');
export const registerCheck = route<typeof accounts.registerCheck>('post', '/auth/register/check');
export const register = route<typeof accounts.register>('post', '/auth/register');
export const login = route<typeof accounts.login>('post', '/auth/login');
export const logout = route<typeof accounts.logout>('post', '/auth/logout');
export const me = route<typeof accounts.me>('get', '/me');
export const changePassword = route<typeof accounts.changePassword>('post', '/me/password');
export const changeTradePassword = route<typeof accounts.changeTradePassword>(
  'post',
  '/me/trade-password',
);
