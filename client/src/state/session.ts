import { atom, getDefaultStore, useAtomValue } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import type {
  AppInfo,
  LoginAnswer,
  LoginBody,
  RegisterCheckBody,
  User,
} from '@shared/accounts/model';
import * as authApi from '@client/api/auth';
import { onUnauthorized, setAuthToken } from '@client/api/client';
import { sessionEnded$, setSocketToken, type SessionEndNotice } from '@client/streams';
import { queryClient, queryKeys } from './query-client';
import {
  browserStorage,
  guardedStorage,
  isAppInfo,
  isRegisterInfo,
  isToken,
  isUser,
  storageKeys,
} from './session-storage';

// Read on creation (getOnInit) so the first render already knows whether someone is signed in:
// the route guard must not bounce a signed-in user to the login page while storage is read.
const onInit = { getOnInit: true };

export const tokenAtom = atomWithStorage(storageKeys.token, null, guardedStorage(isToken), onInit);
/** The signed-in user as last fetched from /api/me (kept so a reload shows it at once). */
export const userAtom = atomWithStorage(storageKeys.user, null, guardedStorage(isUser), onInit);
export const appInfoAtom = atomWithStorage(
  storageKeys.appInfo,
  null,
  guardedStorage(isAppInfo),
  onInit,
);
/** Register step 1, kept until step 2 succeeds (survives a reload between the steps). */
export const registerInfoAtom = atomWithStorage(
  storageKeys.registerInfo,
  null,
  guardedStorage(isRegisterInfo),
  onInit,
);

/**
 * A session that ended without the user asking (logged out elsewhere, a password changed on
 * another device, expired): why, for the login page to say, until the next login. `id` tells
 * one end from the next.
 */
export interface SessionEndedNotice {
  id: number;
  reason: SessionEndNotice;
}
export const sessionEndedAtom = atom<SessionEndedNotice | null>(null);
let nextNoticeId = 1;

// The app has no jotai Provider: screens and these actions share the default store.
const store = getDefaultStore();

/** Stores the session of a successful login. */
export function signIn(answer: LoginAnswer): void {
  store.set(sessionEndedAtom, null);
  store.set(tokenAtom, answer.token);
  store.set(userAtom, answer.user);
}

/** Forgets the session on this device (the server is not asked; see `logout`). */
export function signOut(): void {
  store.set(tokenAtom, null);
  store.set(userAtom, null);
}

/**
 * Logs in with account and password (and a two-factor code, a device token); rejects with the
 * server's ApiError. The answer's `device` is for the sign-in page to keep.
 */
export async function login(body: LoginBody): Promise<LoginAnswer> {
  const answer = await authApi.login(body);
  signIn(answer);
  return answer;
}

/** The token of a logout this tab asked for and has not finished: its end is no news. */
let leaving: string | null = null;

/**
 * The server ended the session of `token`, or refused it: if it is still this tab's session,
 * sign out and keep why, for the login page. A session this tab is logging out of itself, or
 * one it has already left for another, is none of this.
 */
function sessionEnded(token: string | null, reason: SessionEndNotice): void {
  if (!token || token !== store.get(tokenAtom) || token === leaving) return;
  signOut();
  store.set(sessionEndedAtom, { id: nextNoticeId++, reason });
}

/**
 * Ends the session on the server, then here. The local sign-out happens whatever the server
 * says: a user who asked to leave must not stay signed in because the network is down.
 */
export async function logout(): Promise<void> {
  const token = store.get(tokenAtom);
  leaving = token;
  try {
    if (token) await authApi.logout().catch(() => undefined);
  } finally {
    store.set(sessionEndedAtom, null);
    signOut();
    leaving = null;
  }
}

/** Forgets the notice of an ended session (shown once, on the login page). */
export function clearSessionEnded(): void {
  store.set(sessionEndedAtom, null);
}

/**
 * "Clear cache": ends the session, then empties local storage entirely (the language choice
 * too) and resets every persisted atom, so the app behaves as on a first visit.
 */
export async function clearCache(): Promise<void> {
  await logout();
  browserStorage()?.clear();
  store.set(appInfoAtom, null);
  store.set(registerInfoAtom, null);
}

/**
 * Fetches /api/me for the current token. A 401 signs out (through the api client's listener);
 * other failures keep the cached user, so a flaky network does not empty the screen. A query:
 * calls made while a read is out share it, and a read younger than `maxAgeMs` (none by default)
 * serves without asking again (the start's read serves the first page's visit).
 */
export async function refreshUser(maxAgeMs = 0): Promise<User | null> {
  const token = store.get(tokenAtom);
  if (!token) return null;
  const user = await queryClient.fetchQuery({
    queryKey: queryKeys.user,
    queryFn: () => authApi.getMe(),
    staleTime: maxAgeMs,
  });
  // A logout or another login while the request was out: this answer is stale.
  if (store.get(tokenAtom) === token) store.set(userAtom, user);
  return user;
}

async function refreshAppInfo(): Promise<void> {
  store.set(appInfoAtom, await authApi.getAppInfo());
}

export function setRegisterInfo(info: RegisterCheckBody | null): void {
  store.set(registerInfoAtom, info);
}

/**
 * Wires the session once at start: the token goes to the api client and the socket now and on
 * every change (here or in another tab); a 401 anywhere, a session the server ended on the
 * socket, or a token the socket refused signs out with a notice. Then the user and app info are
 * refreshed. Returns a cleanup.
 */
export function startSession(): () => void {
  const applyToken = () => {
    const token = store.get(tokenAtom);
    setAuthToken(token);
    setSocketToken(token);
  };
  applyToken();
  const unsubs = [
    store.sub(tokenAtom, applyToken),
    onUnauthorized(() => sessionEnded(store.get(tokenAtom), 'ended')),
    (() => {
      const sub = sessionEnded$.subscribe((end) => sessionEnded(end.token, end.reason));
      return () => sub.unsubscribe();
    })(),
  ];
  void refreshUser().catch(() => undefined);
  void refreshAppInfo().catch(() => undefined);
  return () => unsubs.forEach((unsub) => unsub());
}

export const useToken = (): string | null => useAtomValue(tokenAtom);
export const useIsLoggedIn = (): boolean => useAtomValue(tokenAtom) !== null;
export const useUser = (): User | null => useAtomValue(userAtom);
export const useAppInfo = (): AppInfo | null => useAtomValue(appInfoAtom);
export const useRegisterInfo = (): RegisterCheckBody | null => useAtomValue(registerInfoAtom);
export const useSessionEnded = (): SessionEndedNotice | null => useAtomValue(sessionEndedAtom);
