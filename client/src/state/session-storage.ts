import type { AppInfo, RegisterCheckBody, User } from '@shared/accounts/model';

/** The local-storage keys of the client state (seed spec §3). */
export const storageKeys = {
  token: 'token',
  user: 'userInfo',
  appInfo: 'appInfo',
  registerInfo: 'registerInfo',
} as const;

/** The browser's local storage, or undefined where there is none or it is blocked. */
export function browserStorage(): Storage | undefined {
  try {
    // globalThis, not window: the same object in a browser, and absent rather than a crash
    // where there is no DOM (unit tests).
    return globalThis.localStorage;
  } catch {
    return undefined; // storage blocked (private mode, sandboxed frame)
  }
}

type Guard<T> = (value: unknown) => value is T;

/**
 * JSON in local storage for one atom (jotai's SyncStorage). What comes back is checked with
 * `isValid`: storage is written by older versions of the app and by hand, and a bad value must
 * read as "none", not crash a screen. Setting null removes the key, so a signed-out user leaves
 * nothing behind.
 */
export function guardedStorage<T>(isValid: Guard<T>, getStorage = browserStorage) {
  const parse = (raw: string | null | undefined): T | null => {
    if (raw == null) return null;
    try {
      const value: unknown = JSON.parse(raw);
      return isValid(value) ? value : null;
    } catch {
      return null;
    }
  };
  const write = (key: string, value: T | null) => {
    try {
      const storage = getStorage();
      if (value === null) storage?.removeItem(key);
      else storage?.setItem(key, JSON.stringify(value));
    } catch {
      // Full or blocked storage: the state still holds for this visit, it is just not kept.
    }
  };
  return {
    getItem: (key: string, _initial: T | null): T | null => parse(getStorage()?.getItem(key)),
    setItem: write,
    removeItem: (key: string) => write(key, null),
    /** Another tab signing in or out (or clearing storage: key null) reaches this one. */
    subscribe: (key: string, callback: (value: T | null) => void) => {
      if (typeof window === 'undefined') return () => undefined;
      const listener = (event: StorageEvent) => {
        if (event.storageArea !== getStorage()) return;
        if (event.key === key || event.key === null) callback(parse(event.newValue));
      };
      window.addEventListener('storage', listener);
      return () => window.removeEventListener('storage', listener);
    },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isString = (v: unknown): v is string => typeof v === 'string';

export const isToken = (v: unknown): v is string => isString(v) && v.length > 0;

export const isUser = (v: unknown): v is User =>
  isObject(v) &&
  isString(v.id) &&
  isString(v.account) &&
  isString(v.inviteCode) &&
  typeof v.creditScore === 'number' &&
  isObject(v.kyc) &&
  isString(v.kyc.status);

export const isAppInfo = (v: unknown): v is AppInfo =>
  isObject(v) &&
  isString(v.name) &&
  isString(v.currency) &&
  isString(v.termsVersion) &&
  Array.isArray(v.languages);

export const isRegisterInfo = (v: unknown): v is RegisterCheckBody =>
  isObject(v) && isString(v.account) && isString(v.phone) && isString(v.inviteCode);
