import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InfiniteQueryObserver, QueryClient, type InfiniteData } from '@tanstack/react-query';
import { Subject } from 'rxjs';
import type { Order } from '@shared/orders/model';
import type { AccountSummary, Deposit, Page } from '@shared/wallet/model';
import { orderListKey } from './orders';
import { queryKeys } from './query-client';
import { connectQueryBridge } from './query-bridge';

const summary = (available: number): AccountSummary => ({
  available,
  inOrders: 0,
  withdrawHold: 0,
  savings: 0,
  totalAssets: available,
  pnlTotal: 0,
  pnlToday: 0,
  creditScore: 100,
  verified: true,
  practice: { available: 0, inOrders: 0, pnlTotal: 0, pnlToday: 0, resetTo: 0 },
});

const order = (id: number, status: Order['status'] = 'open'): Order => ({
  id: String(id),
  mode: 'real',
  productId: 'BTCUSDT',
  direction: 'up',
  amount: 100_000,
  duration: 30,
  expiry: null,
  rate: '0.8',
  status,
  entry: { seq: id, ts: 0, price: '100.00' },
  exit: status === 'open' ? null : { seq: id + 1, ts: 30_000, price: '101.00' },
  payout: status === 'open' ? null : 180_000,
  pnl: status === 'open' ? null : 80_000,
  createdAt: 0,
  expiresAt: 30_000,
  settledAt: status === 'open' ? null : 30_100,
  voidReason: null,
  sale: null,
});

const pages = (...lists: Order[][]): InfiniteData<Page<Order>> => ({
  pages: lists.map((items, i) => ({ items, nextCursor: i < lists.length - 1 ? 'x' : null })),
  pageParams: lists.map((_, i) => (i === 0 ? null : 'x')),
});

describe('the socket → query cache bridge', () => {
  let client: QueryClient;
  let sources: {
    balance$: Subject<AccountSummary>;
    order$: Subject<Order>;
    message$: Subject<unknown>;
    deposit$: Subject<Deposit>;
    missed$: Subject<void>;
  };
  let stop: () => void;

  beforeEach(() => {
    client = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000, retry: false } } });
    sources = {
      balance$: new Subject(),
      order$: new Subject(),
      message$: new Subject(),
      deposit$: new Subject(),
      missed$: new Subject(),
    };
    stop = connectQueryBridge(client, sources);
  });
  afterEach(() => {
    stop();
    client.clear();
  });

  const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;

  it('puts a balance event into the summary query, and marks the savings and money records stale', () => {
    client.setQueryData(queryKeys.summary, summary(100));
    client.setQueryData(queryKeys.savings, { confirmed: 1 });
    client.setQueryData(queryKeys.deposits, { pages: [], pageParams: [] });
    sources.balance$.next(summary(250));
    expect(client.getQueryData<AccountSummary>(queryKeys.summary)?.available).toBe(250);
    expect(invalidated(queryKeys.summary)).toBe(false);
    expect(invalidated(queryKeys.savings)).toBe(true);
    expect(invalidated(queryKeys.deposits)).toBe(true);
  });

  it('fills the summary from a balance event even before it was ever loaded', () => {
    sources.balance$.next(summary(7));
    expect(client.getQueryData<AccountSummary>(queryKeys.summary)?.available).toBe(7);
  });

  it('invalidates the messages and the unread count on a message event, and reads a shown list again', async () => {
    let reads = 0;
    const observer = new InfiniteQueryObserver(client, {
      queryKey: queryKeys.messageList,
      queryFn: () => Promise.resolve({ items: [{ id: String(++reads) }], nextCursor: null }),
      initialPageParam: null,
      getNextPageParam: () => null,
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await expect.poll(() => reads).toBe(1);
    client.setQueryData(queryKeys.unread, 3);
    client.setQueryData(queryKeys.summary, summary(1));

    sources.message$.next({ id: '9', title: 'x' });
    expect(invalidated(queryKeys.unread)).toBe(true);
    expect(invalidated(queryKeys.summary)).toBe(false);
    await expect.poll(() => reads).toBe(2);
    unsubscribe();
  });

  it('invalidates everything of the user when a replay was not complete, and nothing public', () => {
    client.setQueryData(queryKeys.summary, summary(1));
    client.setQueryData(queryKeys.unread, 0);
    client.setQueryData(orderListKey('real', 'records'), pages([]));
    client.setQueryData(queryKeys.products, []);
    sources.missed$.next();
    expect(invalidated(queryKeys.summary)).toBe(true);
    expect(invalidated(queryKeys.unread)).toBe(true);
    expect(invalidated(orderListKey('real', 'records'))).toBe(true);
    expect(invalidated(queryKeys.products)).toBe(false);
  });

  it('puts a placed order on top of records and positions, and moves it to history once settled', () => {
    const ids = (tab: 'records' | 'positions' | 'history') =>
      client
        .getQueryData<InfiniteData<Page<Order>>>(orderListKey('real', tab))
        ?.pages.map((p) => p.items.map((o) => `${o.id}:${o.status}`));
    client.setQueryData(orderListKey('real', 'records'), pages([order(5), order(4, 'won')]));
    client.setQueryData(orderListKey('real', 'positions'), pages([order(5)]));
    client.setQueryData(orderListKey('real', 'history'), pages([order(4, 'won')]));
    client.setQueryData(orderListKey('practice', 'records'), pages([]));

    sources.order$.next(order(6));
    expect(ids('records')).toEqual([['6:open', '5:open', '4:won']]);
    expect(ids('positions')).toEqual([['6:open', '5:open']]);
    expect(ids('history')).toEqual([['4:won']]);

    sources.order$.next(order(6, 'lost'));
    sources.order$.next(order(6)); // a late replay of the placement cannot reopen it
    expect(ids('records')).toEqual([['6:lost', '5:open', '4:won']]);
    expect(ids('positions')).toEqual([['5:open']]);
    expect(ids('history')).toEqual([['6:lost', '4:won']]);
    // The other mode's list never sees it.
    expect(
      client.getQueryData<InfiniteData<Page<Order>>>(orderListKey('practice', 'records'))?.pages[0]
        ?.items,
    ).toEqual([]);
  });

  it('puts a deposit event into the cached deposit list in place, without reading it again', () => {
    const usdt = (status: Deposit['status'], confirmations: number): Deposit => ({
      id: '3',
      channel: 'usdt-erc20',
      amount: 5_000,
      source: 'chain',
      chain: {
        fromAddress: '0xsender',
        toAddress: '0xown',
        blockNumber: 10,
        logIndex: 1,
        confirmations,
        requiredConfirmations: 12,
        explorerUrl: 'https://etherscan.io/tx/0xab',
      },
      status,
      createdAt: 0,
    });
    client.setQueryData(queryKeys.deposits, {
      pages: [{ items: [usdt('confirming', 3)], nextCursor: null }],
      pageParams: [null],
    });
    sources.deposit$.next(usdt('confirming', 4));
    const first = () =>
      client.getQueryData<InfiniteData<Page<Deposit>>>(queryKeys.deposits)?.pages[0]?.items[0];
    expect(first()?.chain?.confirmations).toBe(4);
    sources.deposit$.next(usdt('approved', 12));
    expect(first()?.status).toBe('approved');
    expect(invalidated(queryKeys.deposits)).toBe(false);
  });

  it('stops when disconnected', () => {
    stop();
    sources.balance$.next(summary(9));
    expect(client.getQueryData(queryKeys.summary)).toBeUndefined();
  });
});
