import { useEffect, useEffectEvent } from 'react';
import { atom, getDefaultStore, useAtomValue } from 'jotai';
import { getUnreadCount } from '@client/api/content';
import { reconnected$, userEvent$ } from '@client/streams';
import { tokenAtom } from './session';

const store = getDefaultStore();

/** The signed-in user's unread message count; null while unknown or when nobody is signed in. */
const unreadAtom = atom<number | null>(null);

// Each load gets a number; only the newest may write, so a slow answer never overwrites a newer one.
let loads = 0;

/** Loads the unread count for the current session (or clears it when signed out). */
export async function refreshUnreadCount(): Promise<void> {
  const token = store.get(tokenAtom);
  const load = ++loads;
  if (!token) {
    store.set(unreadAtom, null);
    return;
  }
  try {
    const count = await getUnreadCount();
    if (load === loads && store.get(tokenAtom) === token) store.set(unreadAtom, count);
  } catch {
    // Keep the last count; the next message event or reconnect loads it again.
  }
}

/**
 * The user read `n` messages (or all of them): the badge falls at once, then the server's count
 * replaces the guess. Any load already under way is outdated by this.
 */
export function noteMessagesRead(n: number | 'all'): void {
  loads++;
  store.set(unreadAtom, (c) => (c === null ? c : n === 'all' ? 0 : Math.max(0, c - n)));
  void refreshUnreadCount();
}

// While anything shows the count: load it, and again on every `message` event, reconnect (events
// sent while offline were missed) and login or logout.
unreadAtom.onMount = () => {
  void refreshUnreadCount();
  const subs = [
    userEvent$('message').subscribe(() => void refreshUnreadCount()),
    reconnected$.subscribe(() => void refreshUnreadCount()),
  ];
  const unsubToken = store.sub(tokenAtom, () => void refreshUnreadCount());
  return () => {
    for (const s of subs) s.unsubscribe();
    unsubToken();
  };
};

/** The unread count, live: null while unknown or signed out. */
export const useUnreadCount = (): number | null => useAtomValue(unreadAtom);

/** Calls `onMessage` for every `message` event while the calling screen is shown. */
export function useMessageEvents(onMessage: (message: { id: string; title: string }) => void) {
  const handle = useEffectEvent(onMessage);
  useEffect(() => {
    const sub = userEvent$('message').subscribe((m) => handle(m));
    return () => sub.unsubscribe();
  }, []);
}
