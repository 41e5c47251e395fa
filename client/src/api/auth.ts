import type {
  AppInfo,
  ChangePasswordBody,
  LoginAnswer,
  LoginBody,
  RegisterBody,
  RegisterCheckBody,
  User,
} from '@shared/accounts/model';
import * as accounts from '@shared/accounts/routes';
import { call } from './client';

/** Step 1 of registration: 409 ACCOUNT_TAKEN, 400 INVITE_INVALID, or ok. */
export function checkRegistration(body: RegisterCheckBody): Promise<{ ok: true }> {
  return call(accounts.registerCheck, { body });
}

/** Step 2: creates the user; the user logs in afterwards (no token is issued here). */
export function register(body: RegisterBody): Promise<{ user: User }> {
  return call(accounts.register, { body });
}

export function login(body: LoginBody): Promise<LoginAnswer> {
  return call(accounts.login, { body });
}

export function logout(): Promise<void> {
  return call(accounts.logout, {});
}

export function getMe(signal?: AbortSignal): Promise<User> {
  return call(accounts.me, {}, { signal });
}

export type PasswordKind = 'login' | 'trade';

/** Needs the old password; ends the user's other sessions (this one stays). */
export function changePassword(kind: PasswordKind, body: ChangePasswordBody): Promise<void> {
  return kind === 'login'
    ? call(accounts.changePassword, { body })
    : call(accounts.changeTradePassword, { body });
}

export function getAppInfo(signal?: AbortSignal): Promise<AppInfo> {
  return call(accounts.appInfo, {}, { signal });
}
