import {
  animationFrameScheduler,
  Observable,
  startWith,
  switchMap,
  type MonoTypeOperatorFunction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { UTCTimestamp } from 'lightweight-charts';
import { applyTick, type CandleUnits } from '@shared/aggregate';
import type { Tick } from '@shared/market/model';
import { priceToUnits, unitsToPrice } from '@shared/price';
import type { Candle } from '@shared/product';
import type { TapeTick } from '@client/api/market';

export interface CandleBar {
  time: UTCTimestamp;
  open: number;
  high: number;
  low: number;
  close: number;
  /**
   * Base volume from the candles' REST history. Live ticks carry no quantity, so the live candle
   * keeps what its bucket had when loaded (0 for a bucket that began since) until a reload.
   */
  volume: number;
}

export interface LineBar {
  time: UTCTimestamp;
  value: number;
}

/** What the chart component does with the series: only 'loading'/'error' touch React state. */
export type FeedEvent<B> =
  | { kind: 'loading' }
  | { kind: 'error'; error: unknown }
  | { kind: 'reset'; bars: B[] }
  | { kind: 'update'; bar: B };

interface Folding<H, S, B> {
  /** Turns the loaded history into bars and the state live ticks continue from. */
  init(history: H): { state: S; bars: B[] };
  /** One live tick: the next state, and the bar to update (null: nothing to draw). */
  step(state: S, tick: Tick): { state: S; bar: B | null };
}

/**
 * History from REST, then live ticks folded on top. Ticks are taken from the start and held
 * until the history is in, so nothing between the REST answer and the first live tick is lost;
 * the folding drops what the history already covers. Every `reload$` (ticks the gateway could
 * not replay after a reconnection, a retry) starts over: those holes only a reload can fill. A
 * reconnection whose ticks were replayed needs none.
 */
function historyThenLive<H, S, B>(
  load: (signal: AbortSignal) => Promise<H>,
  ticks$: Observable<Tick>,
  reload$: Observable<unknown>,
  folding: Folding<H, S, B>,
): Observable<FeedEvent<B>> {
  return reload$.pipe(
    startWith(null),
    switchMap(
      () =>
        new Observable<FeedEvent<B>>((subscriber) => {
          subscriber.next({ kind: 'loading' });
          let state: { value: S } | null = null;
          const held: Tick[] = [];
          const apply = (tick: Tick) => {
            if (!state) return;
            const next = folding.step(state.value, tick);
            state = { value: next.state };
            if (next.bar) subscriber.next({ kind: 'update', bar: next.bar });
          };
          const ticks = ticks$.subscribe((tick) => (state ? apply(tick) : held.push(tick)));
          const controller = new AbortController();
          load(controller.signal).then(
            (history) => {
              if (controller.signal.aborted) return;
              const first = folding.init(history);
              state = { value: first.state };
              subscriber.next({ kind: 'reset', bars: first.bars });
              held.splice(0).forEach(apply);
            },
            (error: unknown) => {
              if (!controller.signal.aborted) subscriber.next({ kind: 'error', error });
            },
          );
          return () => {
            controller.abort();
            ticks.unsubscribe();
          };
        }),
    ),
  );
}

/**
 * The chart drawn at most once per bar per animation frame (issue 21): every tick is still
 * folded into its candle (highs and lows kept), only the drawing of the result is coalesced,
 * the newest bar of each time winning. Any other event (loading, error, reset) first draws what
 * is pending, so the order of events holds.
 */
export function updatesPerFrame<B extends { time: unknown }>(
  scheduler: SchedulerLike = animationFrameScheduler,
): MonoTypeOperatorFunction<FeedEvent<B>> {
  return (source) =>
    new Observable<FeedEvent<B>>((subscriber) => {
      let pending = new Map<unknown, B>();
      let frame: Subscription | null = null;
      const flush = () => {
        frame?.unsubscribe();
        frame = null;
        const bars = pending;
        pending = new Map();
        for (const bar of bars.values()) subscriber.next({ kind: 'update', bar });
      };
      const sub = source.subscribe({
        next(event) {
          if (event.kind === 'update') {
            pending.set(event.bar.time, event.bar);
            frame ??= scheduler.schedule(flush);
            return;
          }
          flush();
          subscriber.next(event);
        },
        error(err: unknown) {
          flush();
          subscriber.error(err);
        },
        complete() {
          flush();
          subscriber.complete();
        },
      });
      return () => {
        frame?.unsubscribe();
        sub.unsubscribe();
      };
    });
}

const seconds = (ms: number) => Math.floor(ms / 1000) as UTCTimestamp;

function safeUnits(price: string, precision: number): number | null {
  try {
    return priceToUnits(price, precision);
  } catch {
    return null; // a malformed price must not take the chart down; skip it
  }
}

/** A REST candle's base volume as a number (0 when unreadable: the bar still draws). */
const volumeOf = (c: Candle) => {
  const v = Number(c.v);
  return Number.isFinite(v) && v >= 0 ? v : 0;
};

/** REST candle → units; its volume travels beside (the live candle adds none: ticks carry no qty). */
export function candleToUnits(c: Candle, precision: number): CandleUnits {
  return {
    t: c.t,
    o: priceToUnits(c.o, precision),
    h: priceToUnits(c.h, precision),
    l: priceToUnits(c.l, precision),
    c: priceToUnits(c.c, precision),
    v: 0,
    a: 0n,
    n: 0,
  };
}

export function unitsToBar(c: CandleUnits, precision: number, volume: number): CandleBar {
  const num = (units: number) => Number(unitsToPrice(units, precision));
  return {
    time: seconds(c.t),
    open: num(c.o),
    high: num(c.h),
    low: num(c.l),
    close: num(c.c),
    volume,
  };
}

interface CandleState {
  candle: CandleUnits | null;
  /** The live candle's volume (see CandleBar.volume). */
  volume: number;
}

export interface CandleFeedOptions {
  precision: number;
  intervalMs: number;
  loadCandles: (signal: AbortSignal) => Promise<Candle[]>;
  ticks$: Observable<Tick>;
  reload$: Observable<unknown>;
  /**
   * Volume counts ticks (candles built from the tape, chart-ticks.ts): each live tick adds one,
   * so the live candle's bar grows like the history's. Otherwise the REST base volume, which
   * live ticks (they carry no quantity) leave as it was.
   */
  tickVolume?: boolean;
}

/**
 * Candles: REST history, then the live candle built from ticks with the shared applyTick (the
 * same fold the server uses for its candles), continuing the newest REST candle.
 */
export function candleFeed(o: CandleFeedOptions): Observable<FeedEvent<CandleBar>> {
  return historyThenLive(o.loadCandles, o.ticks$, o.reload$, {
    init: (candles) => {
      const sorted = [...candles].sort((a, b) => a.t - b.t);
      const bars = sorted.map((c) =>
        unitsToBar(candleToUnits(c, o.precision), o.precision, volumeOf(c)),
      );
      const last = sorted.at(-1);
      return {
        state: {
          candle: last ? candleToUnits(last, o.precision) : null,
          volume: last ? volumeOf(last) : 0,
        },
        bars,
      };
    },
    step: (state: CandleState, tick) => {
      const price = safeUnits(tick.price, o.precision);
      if (price === null) return { state, bar: null };
      const current = state.candle;
      const { candle } = applyTick(current, { ts: tick.ts, price, qty: 0 }, o.intervalMs);
      // applyTick hands back `current` itself for a tick older than the live candle.
      if (candle === current) return { state, bar: null };
      const volume =
        (current && candle.t === current.t ? state.volume : 0) + (o.tickVolume ? 1 : 0);
      return { state: { candle, volume }, bar: unitsToBar(candle, o.precision, volume) };
    },
  });
}

export interface LineFeedOptions {
  loadTicks: (signal: AbortSignal) => Promise<TapeTick[]>;
  ticks$: Observable<Tick>;
  reload$: Observable<unknown>;
}

interface LineState {
  seq: number;
  time: number;
}

/**
 * The line ("time-sharing") view: recent ticks from the tape, then live ones. The chart's time
 * axis counts whole seconds, so several ticks in one second make one point (the last wins).
 */
export function lineFeed(o: LineFeedOptions): Observable<FeedEvent<LineBar>> {
  return historyThenLive(o.loadTicks, o.ticks$, o.reload$, {
    init: (tape) => {
      const sorted = [...tape].sort((a, b) => a.seq - b.seq);
      const bars: LineBar[] = [];
      for (const tick of sorted) {
        const bar = { time: seconds(tick.ts), value: Number(tick.price) };
        const last = bars.at(-1);
        if (last && last.time === bar.time) bars[bars.length - 1] = bar;
        else if (!last || bar.time > last.time) bars.push(bar);
      }
      const newest = sorted.at(-1);
      return {
        state: { seq: newest?.seq ?? -Infinity, time: bars.at(-1)?.time ?? -Infinity },
        bars,
      };
    },
    step: (state: LineState, tick) => {
      const time = seconds(tick.ts);
      if (tick.seq <= state.seq || time < state.time) return { state, bar: null };
      return { state: { seq: tick.seq, time }, bar: { time, value: Number(tick.price) } };
    },
  });
}
