import type { QueryClient } from '@tanstack/react-query';
import { getDefaultStore } from 'jotai';
import type { Observable } from 'rxjs';
import type { Order } from '@shared/orders/model';
import type { AccountSummary, Deposit } from '@shared/wallet/model';
import { userEvent$, userEventsMissed$ } from '@client/streams';
import { applyDeposit } from './deposits';
import { applyOrder } from './orders';
import { queryClient, queryKeys } from './query-client';
import { tokenAtom } from './session';

/** The socket's news of the user, as the bridge takes it (the streams, or a test's subjects). */
export interface BridgeSources {
  balance$: Observable<AccountSummary>;
  order$: Observable<Order>;
  message$: Observable<unknown>;
  deposit$: Observable<Deposit>;
  /** Another device changed the user's drawings on a product's chart. */
  drawings$?: Observable<{ product: string }>;
  /** A reconnection whose replay of the user's events was not complete. */
  missed$: Observable<void>;
}

/**
 * The one place where socket events reach the query cache:
 * - `balance` carries the new summary: it becomes the summary query's data; the savings figures,
 *   money records and identity check it follows (a payment, a review) are read again;
 * - `order` changes the cached order lists in place (orders.ts);
 * - `deposit` (seen on chain, a confirmation more, credited, held, dropped, reviewed) changes the
 *   cached deposit lists in place (deposits.ts): the USDT screen's incoming transfers and the
 *   deposit details; the credit itself comes as a `balance` and a `message` event;
 * - `message` (every review writes one) reads the messages, the unread count and the money
 *   records again;
 * - `drawings { product }` (a change on another device) reads that product's drawings again;
 * - a reconnection whose replay was not complete (docs/API.md, "Missed events") reads everything
 *   of the user again; one whose replay brought every event it missed reads nothing.
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
    sources.deposit$.subscribe((deposit) => applyDeposit(deposit, client)),
    sources.message$.subscribe(() => {
      invalidate(queryKeys.messages);
      invalidate(queryKeys.wallet);
    }),
    sources.missed$.subscribe(() => invalidate(queryKeys.me)),
  ];
  if (sources.drawings$)
    subs.push(
      sources.drawings$.subscribe(({ product }) => invalidate(queryKeys.drawings(product))),
    );
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
    deposit$: userEvent$('deposit'),
    drawings$: userEvent$('drawings'),
    missed$: userEventsMissed$,
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
