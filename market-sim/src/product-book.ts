import { applyTick, Rolling24h, type CandleUnits } from '@shared/aggregate';
import type { Tick } from '@shared/market';
import { unitsToPrice } from '@shared/price';
import type { ProductSpec } from './catalogue';
import { createPriceModel } from './model';
import { deriveSeed } from './rng';
import type { TapeRow } from './tape.repo';

const MINUTE = 60_000;

/** One product's running state in the simulator: price model, sequence, live candle, 24h window. */
export class ProductBook {
  readonly rolling = new Rolling24h();
  private readonly model: ReturnType<typeof createPriceModel>;
  private seq: number;
  private live: CandleUnits | null;
  private last: TapeRow | null;

  constructor(
    readonly spec: ProductSpec,
    seed: number,
    last: TapeRow | null,
    history: readonly CandleUnits[],
  ) {
    // Resuming continues the price from the tape; the seed moves on with the sequence so a
    // restarted simulator does not replay the moves it made before.
    this.model = createPriceModel(
      spec,
      deriveSeed(seed, `${spec.id}:${last?.seq ?? 0}`),
      last?.price,
    );
    this.seq = last?.seq ?? 0;
    this.last = last;
    for (const c of history) this.rolling.pushCandle(c);
    this.live = history.at(-1) ?? null;
  }

  get lastTs(): number | null {
    return this.last?.ts ?? null;
  }

  get priceUnits(): number {
    return this.last?.price ?? this.model.price;
  }

  /** Makes the next tick at `ts`; returns the tape row and the updated 1-minute candle. */
  step(ts: number): { row: TapeRow; candle: CandleUnits; closed: CandleUnits | null } {
    const dt = this.last ? Math.max(1, ts - this.last.ts) : 500;
    const { price, qty } = this.model.next(dt);
    const row: TapeRow = { productId: this.spec.id, seq: ++this.seq, ts, price, qty };
    const { candle, closed } = applyTick(this.live, { ts, price, qty }, MINUTE);
    this.live = candle;
    this.last = row;
    this.rolling.pushCandle(candle);
    return { row, candle, closed };
  }

  /** The 1-minute candle being built (null before the first tick). */
  currentCandle(): CandleUnits | null {
    return this.live;
  }

  lastTick(): Tick | null {
    const l = this.last;
    return l
      ? { id: l.productId, seq: l.seq, ts: l.ts, price: unitsToPrice(l.price, this.spec.precision) }
      : null;
  }
}
