import type { QueryClient } from '@tanstack/react-query';
import { getDefaultStore } from 'jotai';
import type { Observable } from 'rxjs';
import type { Order } from '@shared/orders';
import type { AccountSummary } from '@shared/wallet';
import { reconnected$, userEvent$ } from '@client/streams';
import { applyOrder } from './orders';
import { queryClient, queryKeys } from './query-client';
import { tokenAtom } from './session';

/** The socket's news of the user, as the bridge takes it (the streams, or a test's subjects). */
export interface BridgeSources {
  balance$: Observable<AccountSummary>;
  order$: Observable<Order>;
  message$: Observable<unknown>;
  reconnected$: Observable<void>;
}

/**
 * The one place where socket events reach the query cache:
 * - `balance` carries the new summary: it becomes the summary query's data; the savings figures,
 *   money records and identity check it follows (a payment, a review) are read again;
 * - `order` changes the cached order lists in place (orders.ts);
 * - `message` (every review writes one) reads the messages, the unread count and the money
 *   records again;
 * - a reconnect reads everything of the user again: events sent while offline were missed.
 * Only queries on screen are read again at once; the others when next shown.
 */
export function connectQueryBridge(client: QueryClient, sources: BridgeSources): () => void {
  const invalidate = (queryKey: readonly unknown[]) => void client.invalidateQueries({ queryKey });
  const subs = [
    sources.balance$.subscribe((summary) => {
      client.setQueryData(queryKeys.summary, summary);
      invalidate(queryKeys.savings);
      invalidate(queryKeys.wallet);
    }),
    sources.order$.subscribe((order) => applyOrder(order, client)),
    sources.message$.subscribe(() => {
      invalidate(queryKeys.messages);
      invalidate(queryKeys.wallet);
    }),
    sources.reconnected$.subscribe(() => invalidate(queryKeys.me)),
  ];
  return () => subs.forEach((s) => s.unsubscribe());
}

/**
 * Wires the app's cache at start: the socket's events through the bridge, and a session's change
 * (login, logout, another tab) drops the last user's data (queries on screen load the new one's).
 */
export function startQueryBridge(): () => void {
  const store = getDefaultStore();
  const stop = connectQueryBridge(queryClient, {
    balance$: userEvent$('balance'),
    order$: userEvent$('order'),
    message$: userEvent$('message'),
    reconnected$,
  });
  const unsub = store.sub(
    tokenAtom,
    () => void queryClient.resetQueries({ queryKey: queryKeys.me }),
  );
  return () => {
    stop();
    unsub();
  };
}
