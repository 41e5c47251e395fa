import { describe, expect, it } from 'vitest';
import { Subject, VirtualTimeScheduler } from 'rxjs';
import type { Tick } from '@shared/market/model';
import type { Candle } from '@shared/product';
import type { TapeTick } from '@client/api/market';
import { candleFeed, lineFeed, updatesPerFrame, type FeedEvent, type LineBar } from './chart-feed';

const MIN = 60_000;
const T0 = 1_700_000_000_000 - (1_700_000_000_000 % MIN); // a minute boundary

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = (seq: number, ts: number, price: string): Tick => ({ id: 'BTCUSDT', seq, ts, price });
const flush = () => new Promise((r) => setTimeout(r, 0));

function collect<B>(events: FeedEvent<B>[]) {
  return (e: FeedEvent<B>) => events.push(e);
}

describe('candleFeed', () => {
  function setup(tickVolume = false) {
    const ticks$ = new Subject<Tick>();
    const reload$ = new Subject<void>();
    const loads: ReturnType<typeof deferred<Candle[]>>[] = [];
    const signals: AbortSignal[] = [];
    const feed = candleFeed({
      precision: 2,
      intervalMs: MIN,
      ticks$,
      reload$,
      loadCandles: (signal) => {
        signals.push(signal);
        const d = deferred<Candle[]>();
        loads.push(d);
        return d.promise;
      },
      tickVolume,
    });
    return { ticks$, reload$, loads, signals, feed };
  }

  const history: Candle[] = [
    { t: T0 - MIN, o: '100.00', h: '105.00', l: '99.00', c: '101.00', v: '3' },
    { t: T0, o: '101.00', h: '102.00', l: '100.50', c: '101.50', v: '1' },
  ];

  it('draws the history with its volume, then folds held and live ticks into the newest candle', async () => {
    const { ticks$, loads, feed } = setup();
    const events: FeedEvent<unknown>[] = [];
    feed.subscribe(collect(events));
    ticks$.next(tick(1, T0 + 10_000, '103.00')); // arrives while history loads: held
    loads[0]!.resolve(history);
    await flush();
    ticks$.next(tick(2, T0 + 20_000, '100.00'));
    ticks$.next(tick(3, T0 + MIN + 1, '100.10')); // next minute: a new candle
    expect(events).toEqual([
      { kind: 'loading' },
      {
        kind: 'reset',
        bars: [
          { time: (T0 - MIN) / 1000, open: 100, high: 105, low: 99, close: 101, volume: 3 },
          { time: T0 / 1000, open: 101, high: 102, low: 100.5, close: 101.5, volume: 1 },
        ],
      },
      {
        kind: 'update',
        bar: { time: T0 / 1000, open: 101, high: 103, low: 100.5, close: 103, volume: 1 },
      },
      {
        kind: 'update',
        bar: { time: T0 / 1000, open: 101, high: 103, low: 100, close: 100, volume: 1 },
      },
      {
        kind: 'update',
        bar: {
          time: (T0 + MIN) / 1000,
          open: 100.1,
          high: 100.1,
          low: 100.1,
          close: 100.1,
          volume: 0,
        },
      },
    ]);
  });

  it('ignores ticks older than the newest candle and malformed prices', async () => {
    const { ticks$, loads, feed } = setup();
    const events: FeedEvent<unknown>[] = [];
    feed.subscribe(collect(events));
    loads[0]!.resolve(history);
    await flush();
    ticks$.next(tick(1, T0 - 5_000, '90.00'));
    ticks$.next(tick(2, T0 + 1, 'NaN'));
    ticks$.next(tick(3, T0 + 2, '1.234')); // more decimals than the product has
    expect(events.map((e) => e.kind)).toEqual(['loading', 'reset']);
  });

  it('starts from the first tick when there is no history', async () => {
    const { ticks$, loads, feed } = setup();
    const events: FeedEvent<unknown>[] = [];
    feed.subscribe(collect(events));
    loads[0]!.resolve([]);
    await flush();
    ticks$.next(tick(1, T0 + 5, '7.00'));
    expect(events.slice(1)).toEqual([
      { kind: 'reset', bars: [] },
      { kind: 'update', bar: { time: T0 / 1000, open: 7, high: 7, low: 7, close: 7, volume: 0 } },
    ]);
  });

  it('counts ticks as the volume of candles built from the tape: each live tick adds one', async () => {
    const { ticks$, loads, feed } = setup(true);
    const events: FeedEvent<{ volume: number }>[] = [];
    feed.subscribe(collect(events));
    loads[0]!.resolve(history); // the newest candle held one tick
    await flush();
    ticks$.next(tick(1, T0 + 5, '101.60'));
    ticks$.next(tick(2, T0 + 6, '101.70'));
    ticks$.next(tick(3, T0 + MIN, '101.80')); // a new candle starts at one
    const volumes = events.flatMap((e) => (e.kind === 'update' ? [e.bar.volume] : []));
    expect(volumes).toEqual([2, 3, 1]);
  });

  it('reports a failed load and reloads on demand, cancelling the old load', async () => {
    const { reload$, loads, signals, feed } = setup();
    const events: FeedEvent<unknown>[] = [];
    feed.subscribe(collect(events));
    loads[0]!.reject(new Error('down'));
    await flush();
    expect(events.at(-1)).toEqual({ kind: 'error', error: new Error('down') });
    reload$.next();
    expect(events.at(-1)).toEqual({ kind: 'loading' });
    reload$.next();
    expect(signals[1]!.aborted).toBe(true);
    loads[1]!.resolve(history); // the cancelled load must not draw
    loads[2]!.resolve(history.slice(0, 1));
    await flush();
    const resets = events.filter((e) => e.kind === 'reset');
    expect(resets).toHaveLength(1);
    expect(resets[0]).toMatchObject({ bars: [{ time: (T0 - MIN) / 1000 }] });
  });

  it('cancels the load when unsubscribed', () => {
    const { signals, feed } = setup();
    feed.subscribe().unsubscribe();
    expect(signals[0]!.aborted).toBe(true);
  });
});

describe('lineFeed', () => {
  it('makes one point per second and skips ticks the tape already had', async () => {
    const ticks$ = new Subject<Tick>();
    const load = deferred<TapeTick[]>();
    const events: FeedEvent<unknown>[] = [];
    lineFeed({ ticks$, reload$: new Subject(), loadTicks: () => load.promise }).subscribe(
      collect(events),
    );
    ticks$.next(tick(11, T0 + 1_600, '10.30')); // held; the tape below has it already
    load.resolve([
      { seq: 10, ts: T0 + 1_100, price: '10.20' },
      { seq: 9, ts: T0 + 500, price: '10.00' },
      { seq: 11, ts: T0 + 1_600, price: '10.30' },
    ]);
    await flush();
    ticks$.next(tick(11, T0 + 1_600, '10.30'));
    ticks$.next(tick(12, T0 + 1_900, '10.40'));
    ticks$.next(tick(13, T0 + 2_100, '10.50'));
    expect(events).toEqual([
      { kind: 'loading' },
      {
        kind: 'reset',
        bars: [
          { time: T0 / 1000, value: 10 },
          { time: T0 / 1000 + 1, value: 10.3 },
        ],
      },
      { kind: 'update', bar: { time: T0 / 1000 + 1, value: 10.4 } },
      { kind: 'update', bar: { time: T0 / 1000 + 2, value: 10.5 } },
    ]);
  });
});

describe('updatesPerFrame', () => {
  const bar = (time: number, value: number) => ({ time, value }) as LineBar;

  it('draws one update per bar per frame, the newest, and lets other events flush first', () => {
    const frames = new VirtualTimeScheduler();
    const feed = new Subject<FeedEvent<LineBar>>();
    const seen: FeedEvent<LineBar>[] = [];
    feed.pipe(updatesPerFrame(frames)).subscribe((e) => seen.push(e));
    feed.next({ kind: 'reset', bars: [bar(1, 1)] });
    [1.1, 1.2, 1.3].forEach((v) => feed.next({ kind: 'update', bar: bar(1, v) }));
    feed.next({ kind: 'update', bar: bar(2, 2) }); // the next second's point, same frame
    expect(seen.map((e) => e.kind)).toEqual(['reset']);
    frames.flush();
    expect(seen.slice(1)).toEqual([
      { kind: 'update', bar: bar(1, 1.3) },
      { kind: 'update', bar: bar(2, 2) },
    ]);
    feed.next({ kind: 'update', bar: bar(2, 2.5) });
    feed.next({ kind: 'loading' }); // a reload: what was pending is drawn before it
    expect(seen.slice(3)).toEqual([{ kind: 'update', bar: bar(2, 2.5) }, { kind: 'loading' }]);
  });
});
