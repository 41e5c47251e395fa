import { describe, expect, it } from 'vitest';
import { TestScheduler } from 'rxjs/testing';
import { offlineWatch, type ConnectionState } from './watchdog';

const states: Record<string, ConnectionState> = {
  c: 'connecting',
  o: 'connected',
  d: 'disconnected',
};
const flags = { t: true, f: false };

function scheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe('offlineWatch', () => {
  it('is offline while the socket is disconnected and clears on connect', () => {
    scheduler().run(({ hot, cold, expectObservable }) => {
      const connection$ = hot('o 9ms d 9ms o', states);
      const marketActive$ = cold('f', flags);
      const snapshots$ = hot('');
      expectObservable(
        offlineWatch({ connection$, marketActive$, snapshots$, staleMs: 3500 }),
      ).toBe('f 9ms t 9ms f', flags);
    });
  });

  it('goes offline after 3.5 s without a market snapshot while subscribed', () => {
    scheduler().run(({ hot, cold, expectObservable }) => {
      const connection$ = cold('o', states);
      const marketActive$ = cold('t', flags);
      // Snapshots at 1 s and 2 s, then silence; one returns at 10 s, then silence again.
      const snapshots$ = hot('1000ms s 999ms s 7999ms s');
      expectObservable(
        offlineWatch({ connection$, marketActive$, snapshots$, staleMs: 3500 }),
      ).toBe('f 5499ms t 4499ms f 3499ms t', flags);
    });
  });

  it('stays online without snapshots when nobody holds the market channel', () => {
    scheduler().run(({ hot, cold, expectObservable }) => {
      const connection$ = cold('o', states);
      const marketActive$ = cold('f', flags);
      const snapshots$ = hot('');
      expectObservable(
        offlineWatch({ connection$, marketActive$, snapshots$, staleMs: 3500 }),
        '^ 20s !',
      ).toBe('f', flags);
    });
  });

  it('never goes offline while snapshots keep coming every second', () => {
    scheduler().run(({ hot, cold, expectObservable }) => {
      const connection$ = cold('o', states);
      const marketActive$ = cold('t', flags);
      const snapshots$ = hot('s 999ms s 999ms s 999ms s 999ms s 999ms s');
      expectObservable(
        offlineWatch({ connection$, marketActive$, snapshots$, staleMs: 3500 }),
        '^ 8000ms !',
      ).toBe('f', flags);
    });
  });

  it('restarts the countdown when the market channel is taken after idling', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const connection$ = hot('o', states);
      const marketActive$ = hot('f 9999ms t', flags);
      const snapshots$ = hot('');
      expectObservable(
        offlineWatch({ connection$, marketActive$, snapshots$, staleMs: 3500 }),
      ).toBe('f 13499ms t', flags);
    });
  });

  it('reports a first connection that takes too long', () => {
    scheduler().run(({ hot, cold, expectObservable }) => {
      const connection$ = hot('c 4999ms o', states);
      const marketActive$ = cold('f', flags);
      const snapshots$ = hot('');
      expectObservable(
        offlineWatch({ connection$, marketActive$, snapshots$, staleMs: 3500 }),
      ).toBe('f 3499ms t 1499ms f', flags);
    });
  });
});
