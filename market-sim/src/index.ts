/**
 * The simulator as the server sees it: the catalogue, the feed and its lease (which entry points
 * start), and the tape it owns (what the market module reads). The server imports nothing else
 * of market-sim, and market-sim imports nothing of the server (.dependency-cruiser.cjs).
 */
export { defaultCatalogue, findProduct, type ProductSpec } from './catalogue';
export { productStatus } from './status';
export { startFeed } from './feed';
export { holdLease, type Lease, type LeaseState } from './lease';
export type { TapeFigures } from './tape-writer';
export { candlesSince, lastTicks, maintenanceList, setMaintenance } from './tape.repo';
export { encodeState } from './fairness';
export { listPeriods, markRevealed, unrevealedEnded, type PeriodRow } from './fairness.repo';
