import {
  asyncScheduler,
  combineLatest,
  concat,
  distinctUntilChanged,
  map,
  of,
  startWith,
  switchMap,
  timer,
  type Observable,
  type SchedulerLike,
} from 'rxjs';

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';

export interface WatchdogInputs {
  /** The socket's state; 'connecting' only before the first connection. */
  connection$: Observable<ConnectionState>;
  /** Whether anyone holds the `market` channel (the 1 s snapshot is only expected then). */
  marketActive$: Observable<boolean>;
  /** Every `market` snapshot as it arrives. */
  snapshots$: Observable<unknown>;
  /** How long without a snapshot counts as lost (3.5 s: three missed beats and some slack). */
  staleMs: number;
  scheduler?: SchedulerLike;
}

/**
 * Whether the app should say "network signal lost". A socket can look connected while nothing
 * flows (a dead proxy, a sleeping tab coming back), so the 1 s market heartbeat is watched too:
 * offline when the socket is disconnected, when the first connection takes longer than
 * `staleMs`, or when the market channel is held and no snapshot came for `staleMs`. Clears as
 * soon as the socket connects or a snapshot arrives. Emits only changes.
 */
export function offlineWatch({
  connection$,
  marketActive$,
  snapshots$,
  staleMs,
  scheduler = asyncScheduler,
}: WatchdogInputs): Observable<boolean> {
  const falseThenTrueAfterSilence = concat(
    of(false),
    timer(staleMs, scheduler).pipe(map(() => true)),
  );
  return combineLatest([connection$, marketActive$.pipe(distinctUntilChanged())]).pipe(
    switchMap(([state, marketActive]) => {
      switch (state) {
        case 'disconnected':
          return of(true);
        case 'connecting':
          return falseThenTrueAfterSilence;
        case 'connected':
          if (!marketActive) return of(false);
          // Each snapshot restarts the countdown; startWith counts the (re)connection itself.
          return snapshots$.pipe(
            startWith(null),
            switchMap(() => falseThenTrueAfterSilence),
          );
      }
    }),
    distinctUntilChanged(),
  );
}
