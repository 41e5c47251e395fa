import { useAtomValue } from 'jotai';
import { atomWithQuery } from 'jotai-tanstack-query';
import { getUnreadCount } from '@client/api/content';
import { queryClient, queryKeys } from './query-client';
import { tokenAtom } from './session';

/**
 * The signed-in user's unread message count, as an atom over its query: loaded while anything
 * shows it, read again on every `message` event and reconnect (query-bridge.ts) and for each
 * new session.
 */
const unreadQueryAtom = atomWithQuery(
  (get) => ({
    queryKey: queryKeys.unread,
    queryFn: () => getUnreadCount(),
    enabled: get(tokenAtom) !== null,
  }),
  () => queryClient,
);

/**
 * The user read `n` messages (or all of them): the badge falls at once, then the server's count
 * replaces the guess (a load already under way is outdated by this and is dropped).
 */
export function noteMessagesRead(n: number | 'all'): void {
  queryClient.setQueryData<number>(queryKeys.unread, (c) =>
    c === undefined ? c : n === 'all' ? 0 : Math.max(0, c - n),
  );
  void queryClient.invalidateQueries({ queryKey: queryKeys.unread });
}

/** The unread count, live: null while unknown or signed out. */
export function useUnreadCount(): number | null {
  const query = useAtomValue(unreadQueryAtom);
  const signedIn = useAtomValue(tokenAtom) !== null;
  return signedIn ? (query.data ?? null) : null;
}
