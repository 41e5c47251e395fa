import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoginAnswer, User } from '@shared/accounts/model';

/** A Storage in memory, installed before the state module reads it at import. */
const storage = vi.hoisted(() => {
  const data = new Map<string, string>();
  const fake: Storage = {
    get length() {
      return data.size;
    },
    key: (i) => [...data.keys()][i] ?? null,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, String(v)),
    removeItem: (k) => void data.delete(k),
    clear: () => data.clear(),
  };
  const user = {
    id: '1',
    account: 'stored',
    phone: '123456',
    nickname: 'stored',
    inviteCode: 'AAAA2222',
    creditScore: 100,
    kyc: { status: 'none' },
    createdAt: 0,
  };
  fake.setItem('token', JSON.stringify('stored-token'));
  fake.setItem('userInfo', JSON.stringify(user));
  fake.setItem('appInfo', '{not json');
  Object.defineProperty(globalThis, 'localStorage', { value: fake, configurable: true });
  return fake;
});

/** The socket's session ends, fed by the tests instead of a server. */
const ends = vi.hoisted(() => {
  type End = { token: string; reason: string };
  const listeners = new Set<(end: End) => void>();
  return {
    next: (end: End) => listeners.forEach((l) => l(end)),
    observable: {
      subscribe: (l: (end: End) => void) => {
        listeners.add(l);
        return { unsubscribe: () => listeners.delete(l) };
      },
    },
  };
});
vi.mock('@client/streams', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  sessionEnded$: ends.observable,
}));

import { getDefaultStore } from 'jotai';
import { request } from '@client/api/client';
import {
  appInfoAtom,
  clearCache,
  logout,
  refreshUser,
  registerInfoAtom,
  sessionEndedAtom,
  setRegisterInfo,
  signIn,
  signOut,
  startSession,
  tokenAtom,
  userAtom,
} from './session';
import { guardedStorage, isUser, storageKeys } from './session-storage';

const store = getDefaultStore();
const user = (account: string): User => ({
  id: '7',
  account,
  phone: '+8613800138000',
  nickname: account,
  inviteCode: 'BCDE2345',
  creditScore: 100,
  kyc: { status: 'verified' },
  createdAt: 1_700_000_000_000,
});
const answer = (account: string): LoginAnswer => ({ token: `t-${account}`, user: user(account) });
const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status });

let stop: () => void = () => undefined;
afterEach(() => {
  stop();
  vi.unstubAllGlobals();
});
afterAll(() => {
  Reflect.deleteProperty(globalThis, 'localStorage');
});

describe('persisted client state (seed spec §3)', () => {
  it('uses the spec keys', () => {
    expect(storageKeys).toEqual({
      token: 'token',
      user: 'userInfo',
      appInfo: 'appInfo',
      registerInfo: 'registerInfo',
    });
  });

  it('starts from what storage held, and reads a malformed value as none', () => {
    expect(store.get(tokenAtom)).toBe('stored-token');
    expect(store.get(userAtom)?.account).toBe('stored');
    expect(store.get(appInfoAtom)).toBeNull();
  });

  it('keeps token and userInfo on login and removes both on sign-out', () => {
    signIn(answer('alice'));
    expect(JSON.parse(storage.getItem('token')!)).toBe('t-alice');
    expect(JSON.parse(storage.getItem('userInfo')!)).toMatchObject({ account: 'alice' });
    signOut();
    expect(storage.getItem('token')).toBeNull();
    expect(storage.getItem('userInfo')).toBeNull();
    expect(store.get(userAtom)).toBeNull();
  });

  it('keeps register step 1 under registerInfo until cleared', () => {
    setRegisterInfo({ account: 'bob_1', phone: '123456', inviteCode: 'WELCOME' });
    expect(JSON.parse(storage.getItem('registerInfo')!)).toEqual({
      account: 'bob_1',
      phone: '123456',
      inviteCode: 'WELCOME',
    });
    setRegisterInfo(null);
    expect(storage.getItem('registerInfo')).toBeNull();
    expect(store.get(registerInfoAtom)).toBeNull();
  });

  it('refuses stored values of the wrong shape', () => {
    const users = guardedStorage(isUser, () => storage);
    storage.setItem('x', JSON.stringify({ account: 'no id' }));
    expect(users.getItem('x', null)).toBeNull();
    storage.setItem('x', JSON.stringify(user('carol')));
    expect(users.getItem('x', null)?.account).toBe('carol');
  });
});

describe('session wiring', () => {
  beforeEach(() => signOut());

  it('sends the token as a bearer header once signed in, and none after', async () => {
    const fetch = vi.fn(() => Promise.resolve(json(200, {})));
    vi.stubGlobal('fetch', fetch);
    stop = startSession();
    signIn(answer('dave'));
    await request('/x');
    signOut();
    await request('/x');
    const headers = fetch.mock.calls.map(
      (call) => ((call as unknown[])[1] as RequestInit).headers as Record<string, string>,
    );
    const sent = headers.filter((h) => 'Authorization' in h).map((h) => h.Authorization);
    expect(sent).toEqual(['Bearer t-dave']);
    expect(headers.at(-1)).not.toHaveProperty('Authorization');
  });

  it('signs out when any request with the token is answered 401', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(json(200, {})));
    stop = startSession();
    signIn(answer('erin'));
    vi.stubGlobal('fetch', () =>
      Promise.resolve(json(401, { error: { code: 'UNAUTHENTICATED', message: 'no' } })),
    );
    await expect(request('/orders')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(store.get(tokenAtom)).toBeNull();
    expect(storage.getItem('token')).toBeNull();
  });

  it('refreshes the user from /api/me, ignoring an answer for a session that ended', async () => {
    let reply: (r: Response) => void = () => undefined;
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (reply = resolve)));
    signIn(answer('frank'));
    const pending = refreshUser();
    signOut();
    reply(json(200, user('frank-late')));
    await pending;
    expect(store.get(userAtom)).toBeNull();

    signIn(answer('grace'));
    vi.stubGlobal('fetch', () => Promise.resolve(json(200, { ...user('grace'), creditScore: 90 })));
    await refreshUser();
    expect(store.get(userAtom)?.creditScore).toBe(90);
  });

  it('logs out locally even when the server cannot be reached', async () => {
    signIn(answer('heidi'));
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('offline')));
    await logout();
    expect(store.get(tokenAtom)).toBeNull();
  });

  it('clear cache empties local storage entirely', async () => {
    signIn(answer('ivan'));
    storage.setItem('i18nLang', 'en');
    setRegisterInfo({ account: 'ivan_2', phone: '123456', inviteCode: 'WELCOME' });
    const fetch = vi.fn(() => Promise.resolve(json(204, undefined)));
    vi.stubGlobal('fetch', fetch);
    await clearCache();
    expect(fetch).toHaveBeenCalledWith('/api/auth/logout', expect.anything());
    expect(storage.length).toBe(0);
    expect(store.get(tokenAtom)).toBeNull();
    expect(store.get(registerInfoAtom)).toBeNull();
  });

  it('signs out with the reason when the server ends the session on the socket', () => {
    stop = startSession();
    signIn(answer('judy'));
    ends.next({ token: 't-judy', reason: 'password_changed' });
    expect(store.get(tokenAtom)).toBeNull();
    expect(storage.getItem('token')).toBeNull();
    expect(store.get(sessionEndedAtom)).toMatchObject({ reason: 'password_changed' });
    signIn(answer('judy')); // the next login clears the notice
    expect(store.get(sessionEndedAtom)).toBeNull();
  });

  it('says the session ended when a request with the token is answered 401', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(json(200, {})));
    stop = startSession();
    signIn(answer('kate'));
    vi.stubGlobal('fetch', () =>
      Promise.resolve(json(401, { error: { code: 'UNAUTHENTICATED', message: 'no' } })),
    );
    await expect(request('/me')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(store.get(sessionEndedAtom)).toMatchObject({ reason: 'ended' });
  });

  it('ignores the end of a session it has left: an older login, or its own logout', async () => {
    stop = startSession();
    signIn(answer('liam'));
    ends.next({ token: 't-someone-before', reason: 'logout' });
    expect(store.get(tokenAtom)).toBe('t-liam');
    // The server ends this session's sockets while the logout request is still out.
    vi.stubGlobal('fetch', () => {
      ends.next({ token: 't-liam', reason: 'logout' });
      return Promise.resolve(json(204, undefined));
    });
    await logout();
    expect(store.get(tokenAtom)).toBeNull();
    expect(store.get(sessionEndedAtom)).toBeNull(); // no notice for what the user asked for
  });
});
