import type { LabelGroup } from './position-groups';

/** What the labels say, in the user's language (set by the chart's hook). */
export interface LabelTexts {
  /** Money in minor units, as the app shows it ("1,000.00"). */
  money: (minor: number) => string;
  /** "3 positions". */
  group: (count: number) => string;
}

const arrow = (direction: LabelGroup['direction']) =>
  direction === 'up' ? '▲' : direction === 'down' ? '▼' : '▲▼';

const signed = (pnl: number, texts: LabelTexts) =>
  pnl > 0 ? `+${texts.money(pnl)}` : pnl < 0 ? `−${texts.money(-pnl)}` : texts.money(0);

/**
 * The position labels over the chart (DOM, in the layer over the canvas): one element per
 * label group, reused from frame to frame. Each sits just left of its expiry line at its entry
 * price; its stake and P&L are text, and whether it wins now is its sign as well as its colour.
 */
export function labelLayer(layer: HTMLElement) {
  const els: HTMLElement[] = [];
  const make = () => {
    const el = document.createElement('div');
    el.className = 'position-label';
    el.dataset.testid = 'position-label';
    const what = document.createElement('span');
    const pnl = document.createElement('span');
    pnl.className = 'position-label__pnl num';
    el.append(what, pnl);
    layer.append(el);
    return el;
  };
  return {
    /** Draws `groups` (anchored at their expiry's x and entry's y). */
    draw(groups: readonly LabelGroup[], texts: LabelTexts) {
      while (els.length < groups.length) els.push(make());
      for (const el of els.splice(groups.length)) el.remove();
      groups.forEach((g, i) => {
        const el = els[i]!;
        const [what, pnl] = el.children as unknown as [HTMLElement, HTMLElement];
        const stake = texts.money(g.stake);
        what.textContent =
          g.count === 1 ? `${arrow(g.direction)} ${stake}` : `${texts.group(g.count)} ·`;
        pnl.textContent = g.pnl === null ? '' : signed(g.pnl, texts);
        el.dataset.count = String(g.count);
        // A group's label is kept short (the strip lists each stake); its total is here.
        el.dataset.stake = stake;
        el.dataset.ids = g.ids.join(' ');
        el.dataset.direction = g.direction;
        el.dataset.state = g.pnl === null ? 'none' : g.pnl > 0 ? 'win' : g.pnl < 0 ? 'lose' : 'tie';
        // Always left of its expiry line, between the price and the expiry: so two labels
        // overlap only when their expiries are closer than a label's width (position-groups.ts).
        const left = Math.max(0, g.x - 4 - el.offsetWidth);
        el.style.transform = `translate(${Math.round(left)}px, ${Math.round(g.y - el.offsetHeight / 2)}px)`;
      });
      layer.dataset.labels = String(groups.length);
    },
    remove() {
      for (const el of els.splice(0)) el.remove();
    },
  };
}
