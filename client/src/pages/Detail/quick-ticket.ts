/**
 * The faster ticket's rules, pure so they are tested: quick amounts within the product's bounds
 * and the balance, the ± step, the user's last choice on a product (kept in localStorage), and
 * "repeat last order".
 */
import type { Direction, Order, TradeMode } from '@shared/orders/model';
import type { StakeBounds } from './ticket';

/** Round amounts in minor units (10, 50, 100, 500, 1 000, 5 000 in the quote currency). */
const LADDER = [1_000, 5_000, 10_000, 50_000, 100_000, 500_000, 1_000_000, 5_000_000];

/**
 * Up to `count` quick amounts a user can afford and the product allows: round figures from the
 * ladder within [minStake, min(maxStake, available)], the min stake first when no round figure
 * fits.
 */
export function quickAmounts(bounds: StakeBounds, available: number | null, count = 4): number[] {
  const top = Math.min(bounds.maxStake, available ?? bounds.maxStake);
  if (top < bounds.minStake) return [];
  const fits = LADDER.filter((a) => a >= bounds.minStake && a <= top);
  const list = fits.length > 0 && fits[0] === bounds.minStake ? fits : [bounds.minStake, ...fits];
  return list.slice(0, count);
}

/** The ± step: a tenth of the min stake's order of magnitude above it, at least 1.00. */
export function stepFor({ minStake }: StakeBounds): number {
  return Math.max(100, 10 ** Math.floor(Math.log10(Math.max(1, minStake))));
}

/** The amount after a ± press, kept within the bounds (from empty, + starts at the min stake). */
export function stepAmount(current: number | null, delta: 1 | -1, bounds: StakeBounds): number {
  if (current === null || current === 0) return bounds.minStake;
  const next = current + delta * stepFor(bounds);
  return Math.min(bounds.maxStake, Math.max(bounds.minStake, next));
}

/** "Max": the most the user may stake now: the balance, within the product's bounds. */
export function maxAmount(available: number | null, bounds: StakeBounds): number | null {
  if (available === null || !Number.isSafeInteger(available)) return null;
  const max = Math.min(available, bounds.maxStake);
  return max >= bounds.minStake ? max : null;
}

export interface TicketChoice {
  /** Seconds. */
  duration: number;
  /** Minor units. */
  amount: number;
}

const prefKey = (productId: string) => `ticket:${productId}`;

/** The duration and amount last used on a product, or null. */
export function loadChoice(productId: string, storage: Pick<Storage, 'getItem'> | null = store()) {
  try {
    const raw = storage?.getItem(prefKey(productId));
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<TicketChoice>;
    return Number.isSafeInteger(value.duration) && Number.isSafeInteger(value.amount)
      ? ({ duration: value.duration, amount: value.amount } as TicketChoice)
      : null;
  } catch {
    return null;
  }
}

export function saveChoice(
  productId: string,
  choice: TicketChoice,
  storage: Pick<Storage, 'setItem'> | null = store(),
): void {
  try {
    storage?.setItem(prefKey(productId), JSON.stringify(choice));
  } catch {
    // A full or blocked storage only loses the convenience.
  }
}

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export interface RepeatOrder extends TicketChoice {
  direction: Direction;
}

/** The user's newest order on this product in this mode, as a repeatable choice. */
export function lastOrderOn(
  orders: readonly Order[],
  productId: string,
  mode: TradeMode,
): RepeatOrder | null {
  let last: Order | null = null;
  for (const o of orders)
    if (o.productId === productId && o.mode === mode && (!last || o.createdAt > last.createdAt))
      last = o;
  return last ? { direction: last.direction, amount: last.amount, duration: last.duration } : null;
}
