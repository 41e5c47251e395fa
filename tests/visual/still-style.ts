/* The visual guard's rules for a still page (visual-guard.ts): what is blanked and why. */

/**
 * Where the market moves on screen, blanked in every shot (hidden, their space kept; an overlay
 * still covers them): charts with their position markers, the 24 h figures, live prices, change badges, and an open order's live result, price
 * time bar and what it would pay now.
 */
export const liveRegions = [
  '.chart-box',
  'canvas',
  '.stats',
  '.live-price',
  '.change',
  '[data-testid="price"]',
  '.order-card__price',
  '.order-card__tick',
  '.order-card__headline',
  '.order-card__awaiting',
  // The trade screen's strip of open positions: their live figures and settling states.
  '.positions-strip',
  '.order-card__time',
  '[data-testid^="pay-now-"]',
  // An open order's Sell: its value follows the market, and whether it may sell (muted, with the
  // reason) follows the feed and the seconds left.
  '.sell-button__label',
  '.sell-button__reason',
  // A result's outcome (won, lost, draw) and what it paid. The outcome's word is left out whole
  // (stillStyle): hidden, its width ("Gewonnen", "Verloren") still moved the product's name.
  '.result-toast .result__status',
  '.result-toast__outcome',
  // The ticket's ends at a clock time: their rate, and whether they can be taken (muted in the
  // last 30 s), follow the server's seconds left in the minute, not the page's fixed clock.
  '.ticket__duration--clock',
  // The price alert's field, filled in with the live price.
  '[data-testid="price-alerts-dialog"] input',
];

/** What every shot is taken under: nothing moves, and the live regions are blanked. */
export const stillStyle = `*,*::before,*::after{transition:none!important;animation:none!important;
  caret-color:transparent!important;scroll-behavior:auto!important}
  ${liveRegions.join(',')}{visibility:hidden!important}
  .result-toast{border-left-color:var(--border)!important}
  .result-toast .result__status{display:none!important}`;
