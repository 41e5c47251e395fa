import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { NEVER, Subject } from 'rxjs';
import { connectQueryBridge } from './query-bridge';
import { queryKeys } from './query-client';

describe('a drawings event from another device', () => {
  it('makes that product’s drawings stale (read again when on screen), no other product’s', () => {
    const client = new QueryClient();
    const drawings$ = new Subject<{ product: string }>();
    const stop = connectQueryBridge(client, {
      balance$: NEVER,
      order$: NEVER,
      message$: NEVER,
      deposit$: NEVER,
      missed$: NEVER,
      drawings$,
    });
    client.setQueryData(queryKeys.drawings('BTCUSDT'), []);
    client.setQueryData(queryKeys.drawings('EURUSD'), []);
    const stale = (product: string) =>
      client.getQueryState(queryKeys.drawings(product))?.isInvalidated;
    expect([stale('BTCUSDT'), stale('EURUSD')]).toEqual([false, false]);
    drawings$.next({ product: 'BTCUSDT' });
    expect([stale('BTCUSDT'), stale('EURUSD')]).toEqual([true, false]);
    stop();
    drawings$.next({ product: 'EURUSD' });
    expect(stale('EURUSD')).toBe(false);
    client.clear();
  });
});
