import { applyTick, Rolling24h, type CandleUnits } from '@shared/aggregate';
import type { Tick } from '@shared/market/model';
import { unitsToPrice } from '@shared/price';
import type { ProductSpec } from './catalogue';
import { modelParamsOf, stepMs, type ModelParams, type PeriodStart } from './fairness';
import { createPriceModel, type PriceModel } from './model';
import type { Rng } from './rng';
import type { TapeRow } from './tape.repo';

const MINUTE = 60_000;

/** One product's running state in the simulator: price model, sequence, live candle, 24h window. */
export class ProductBook {
  readonly rolling = new Rolling24h();
  private model: PriceModel;
  private params: ModelParams;
  private seq: number;
  private live: CandleUnits | null;
  private last: TapeRow | null;
  /** The committed period the last live tick belonged to (null: none yet, or a seeded feed). */
  periodStart: number | null = null;

  /**
   * @param model the running model: fresh, resumed from the last recorded price (seeded feeds),
   *   or resumed from its exact state replayed from the tape (committed feeds)
   * @param last the last tick on the tape, or null for an empty tape
   * @param history the 1-minute candles of the last 24 hours, oldest first
   */
  constructor(
    readonly spec: ProductSpec,
    model: PriceModel,
    last: TapeRow | null,
    history: readonly CandleUnits[],
  ) {
    this.model = model;
    this.params = modelParamsOf(spec);
    this.seq = last?.seq ?? 0;
    this.last = last;
    for (const c of history) this.rolling.pushCandle(c);
    this.live = history.at(-1) ?? null;
  }

  get lastTs(): number | null {
    return this.last?.ts ?? null;
  }

  get lastSeq(): number {
    return this.seq;
  }

  get priceUnits(): number {
    return this.last?.price ?? this.model.price;
  }

  /** Where a period starting now starts from: the last tick and the model's state after it. */
  startPoint(): PeriodStart {
    return { seq: this.seq, ts: this.last?.ts ?? null, state: this.model.state() };
  }

  /**
   * Moves on with a period's published parameters (a period's ticks are computed with exactly
   * the parameters it committed to, even if the catalogue changed since), keeping the state.
   */
  useParams(params: ModelParams): void {
    const keys = Object.keys(params) as (keyof ModelParams)[];
    if (keys.every((k) => params[k] === this.params[k])) return;
    this.model = createPriceModel({ id: this.spec.id, ...params }, 0, this.model.state());
    this.params = params;
  }

  /**
   * Makes the next tick at `ts`, drawing from `rng` (the live feed's keyed stream for this tick)
   * or, without it, from the model's own seeded stream (backfill, seeded feeds). Returns the
   * tape row and the updated 1-minute candle.
   */
  step(ts: number, rng?: Rng): { row: TapeRow; candle: CandleUnits; closed: CandleUnits | null } {
    const { price, qty } = this.model.next(stepMs(this.last?.ts ?? null, ts), rng);
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
