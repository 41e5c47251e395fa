import { describe, expect, it } from 'vitest';
import { InfiniteQueryObserver, QueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Deposit, DepositStatus, Page } from '@shared/wallet/model';
import { applyDeposit, applyDepositToPages, newerDeposit } from './deposits';
import { queryKeys } from './query-client';

const deposit = (id: number, status: DepositStatus = 'confirming', confirmations = 1): Deposit => ({
  id: String(id),
  channel: 'usdt-trc20',
  amount: 10_000,
  quantity: 10_000,
  rate: '1',
  txId: 'ab'.repeat(32),
  source: 'chain',
  chain: {
    fromAddress: 'TSender',
    toAddress: 'TOwn',
    blockNumber: 1000 + id,
    logIndex: 0,
    confirmations,
    requiredConfirmations: 20,
    explorerUrl: 'https://tronscan.org/#/transaction/ab',
  },
  status,
  createdAt: id,
});
const page = (items: Deposit[], nextCursor: string | null = null): Page<Deposit> => ({
  items,
  nextCursor,
});
const shown = (pages: Page<Deposit>[]) =>
  pages.map((p) =>
    p.items.map(
      (d) => `${d.id}:${d.status}${d.status === 'confirming' ? d.chain?.confirmations : ''}`,
    ),
  );

describe('a deposit event in the cached lists', () => {
  it('replaces a listed deposit where it is: a confirmation more, then credited', () => {
    let pages = [
      page([deposit(7, 'confirming', 3), deposit(5, 'approved')], '5'),
      page([deposit(2)]),
    ];
    pages = applyDepositToPages(pages, deposit(7, 'confirming', 4));
    expect(shown(pages)).toEqual([['7:confirming4', '5:approved'], ['2:confirming1']]);
    pages = applyDepositToPages(pages, deposit(2, 'dropped'));
    pages = applyDepositToPages(pages, deposit(7, 'approved'));
    expect(shown(pages)).toEqual([['7:approved', '5:approved'], ['2:dropped']]);
  });

  it('puts a transfer seen for the first time on top, and one between others at its place', () => {
    let pages = [page([deposit(7), deposit(5)])];
    pages = applyDepositToPages(pages, deposit(9));
    pages = applyDepositToPages(pages, deposit(6));
    expect(shown(pages)).toEqual([
      ['9:confirming1', '7:confirming1', '6:confirming1', '5:confirming1'],
    ]);
  });

  it('fills an empty list, and leaves one older than every loaded page to the page that brings it', () => {
    expect(shown(applyDepositToPages([page([])], deposit(1)))).toEqual([['1:confirming1']]);
    const pages = [page([deposit(9), deposit(8)], '8')];
    expect(shown(applyDepositToPages(pages, deposit(3)))).toEqual([
      ['9:confirming1', '8:confirming1'],
    ]);
    // The end of the list is loaded: an older one belongs at its end.
    expect(shown(applyDepositToPages([page([deposit(9)])], deposit(3)))).toEqual([
      ['9:confirming1', '3:confirming1'],
    ]);
  });

  it('never goes back: a late confirming copy cannot undo a credit or a hold', () => {
    expect(newerDeposit(deposit(1, 'approved'), deposit(1, 'confirming', 19)).status).toBe(
      'approved',
    );
    expect(newerDeposit(deposit(1, 'pending'), deposit(1, 'confirming', 19)).status).toBe(
      'pending',
    );
    expect(newerDeposit(deposit(1, 'pending'), deposit(1, 'rejected')).status).toBe('rejected');
    // A reorganisation can move a transfer to a later block: fewer confirmations, still news.
    expect(
      newerDeposit(deposit(1, 'confirming', 5), deposit(1, 'confirming', 2)).chain?.confirmations,
    ).toBe(2);
  });

  it('changes every cached deposit list, and reads again one whose read is on its way', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const data: InfiniteData<Page<Deposit>> = { pages: [page([deposit(4)])], pageParams: [null] };
    client.setQueryData(queryKeys.deposits, data);
    applyDeposit(deposit(5), client);
    expect(
      client
        .getQueryData<InfiniteData<Page<Deposit>>>(queryKeys.deposits)
        ?.pages[0]?.items.map((d) => d.id),
    ).toEqual(['5', '4']);

    // A list on screen whose first read is still on its way when the event comes.
    client.clear();
    let reads = 0;
    const observer = new InfiniteQueryObserver(client, {
      queryKey: queryKeys.deposits,
      queryFn: () => {
        reads += 1;
        const items = reads === 1 ? [deposit(5, 'confirming', 1)] : [deposit(5, 'confirming', 2)];
        return new Promise<Page<Deposit>>((resolve) => setTimeout(() => resolve(page(items)), 20));
      },
      initialPageParam: null,
      getNextPageParam: () => null,
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await expect.poll(() => reads).toBe(1);
    applyDeposit(deposit(5, 'confirming', 2), client);
    await expect.poll(() => reads).toBe(2);
    await expect
      .poll(
        () =>
          client.getQueryData<InfiniteData<Page<Deposit>>>(queryKeys.deposits)?.pages[0]?.items[0]
            ?.chain?.confirmations,
      )
      .toBe(2);
    unsubscribe();
    client.clear();
  });
});
