/**
 * The labels of the user's open positions on the chart, kept pure so it is tested apart from the
 * chart: one label per position at its entry price and expiry, with its stake and what it makes
 * or loses if it ended now; positions whose labels would overlap share one ("3 positions ·
 * 30.00 · +12.40"), so five trades at once never stack five labels over the chart (issue 37).
 */
import type { Direction, Order } from '@shared/orders/model';
import { paysNow } from './positions';

export interface LabelItem {
  id: string;
  /** Where the label is anchored on the chart, in pixels: the expiry's x, the entry price's y. */
  x: number;
  y: number;
  direction: Direction;
  /** The stake in minor units. */
  stake: number;
  /** What it makes (positive) or loses (negative) if it ended now; null without entry or price. */
  pnl: number | null;
}

export interface LabelGroup {
  ids: string[];
  x: number;
  y: number;
  /** The members' direction, or 'mixed'. */
  direction: Direction | 'mixed';
  stake: number;
  pnl: number | null;
  count: number;
}

/**
 * How close two anchors may be before their labels merge: a label's width ("▲ 1,000.00
 * −1,000.00" is about 160 px) and height; labels sit left of their anchor (chart-labels.ts).
 */
export const LABEL_BOX = { width: 170, height: 24 };

/** An open order's profit or loss if it ended at `price` (the payout less the stake). */
export function pnlNow(
  order: Pick<Order, 'direction' | 'amount' | 'rate' | 'entry'>,
  price: string | null,
): number | null {
  const pays = paysNow(order, price);
  return pays === null ? null : pays - order.amount;
}

const single = (item: LabelItem): LabelGroup => ({
  ids: [item.id],
  x: item.x,
  y: item.y,
  direction: item.direction,
  stake: item.stake,
  pnl: item.pnl,
  count: 1,
});

function merge(a: LabelGroup, b: LabelGroup): LabelGroup {
  const count = a.count + b.count;
  return {
    ids: [...a.ids, ...b.ids],
    // Where the earlier expiry is, at the members' mean price.
    x: Math.min(a.x, b.x),
    y: (a.y * a.count + b.y * b.count) / count,
    direction: a.direction === b.direction ? a.direction : 'mixed',
    stake: a.stake + b.stake,
    pnl: a.pnl === null || b.pnl === null ? null : a.pnl + b.pnl,
    count,
  };
}

const overlap = (a: LabelGroup, b: LabelGroup, box: typeof LABEL_BOX) =>
  Math.abs(a.x - b.x) < box.width && Math.abs(a.y - b.y) < box.height;

/**
 * The labels to draw: positions whose labels would overlap merged, again and again until no two
 * labels overlap (a merged label moves, and may then meet another). Top to bottom.
 */
export function groupLabels(items: readonly LabelItem[], box = LABEL_BOX): LabelGroup[] {
  let groups = items.map(single);
  for (let merged = true; merged;) {
    merged = false;
    outer: for (let i = 0; i < groups.length; i++)
      for (let j = i + 1; j < groups.length; j++) {
        const [a, b] = [groups[i]!, groups[j]!];
        if (!overlap(a, b, box)) continue;
        groups = [...groups.slice(0, i), merge(a, b), ...groups.slice(i + 1)];
        groups.splice(j, 1);
        merged = true;
        break outer;
      }
  }
  return groups.sort((a, b) => a.y - b.y || a.x - b.x);
}
