import type {
  AppInfo,
  ChangePasswordBody,
  LoginAnswer,
  LoginBody,
  RegisterBody,
  RegisterCheckBody,
  User,
} from '@shared/accounts';
import { request } from './client';

/** Step 1 of registration: 409 ACCOUNT_TAKEN, 400 INVITE_INVALID, or ok. */
export function checkRegistration(body: RegisterCheckBody): Promise<{ ok: true }> {
  return request('/auth/register/check', { method: 'POST', body });
}

/** Step 2: creates the user; the user logs in afterwards (no token is issued here). */
export function register(body: RegisterBody): Promise<{ user: User }> {
  return request('/auth/register', { method: 'POST', body });
}

export function login(body: LoginBody): Promise<LoginAnswer> {
  return request('/auth/login', { method: 'POST', body });
}

export function logout(): Promise<void> {
  return request('/auth/logout', { method: 'POST' });
}

export function getMe(signal?: AbortSignal): Promise<User> {
  return request('/me', { signal });
}

export type PasswordKind = 'login' | 'trade';

/** Needs the old password; ends the user's other sessions (this one stays). */
export function changePassword(kind: PasswordKind, body: ChangePasswordBody): Promise<void> {
  const path = kind === 'login' ? '/me/password' : '/me/trade-password';
  return request(path, { method: 'POST', body });
}

export function getAppInfo(signal?: AbortSignal): Promise<AppInfo> {
  return request('/app-info', { signal });
}
