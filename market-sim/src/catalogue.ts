/**
 * The default product catalogue (product/DECISIONS.md, "Products and the market"): twelve
 * products with starting prices near real levels and realistic annual volatilities.
 */
import type { ProductCategory } from '@shared/market/model';
import type { TradingCalendar } from './calendar';

/** Everything the simulator needs to know about one product. */
export interface ProductSpec {
  id: string;
  name: string;
  category: ProductCategory;
  /** Price decimals. */
  precision: number;
  /** Smallest price step in price units (10^-precision); an integer ≥ 1. */
  tickSize: number;
  /** Decimal string at `precision` decimals, a multiple of the tick size. */
  startPrice: string;
  /** Annualised volatility of log returns, e.g. 0.6 for 60 %. */
  annualVol: number;
  /** Mean number of price jumps per 24 hours of trading. */
  jumpsPerDay: number;
  /** Base-unit size of one lot, decimal string, e.g. "0.0001". */
  lotSize: string;
  /** Mean lots traded per tick. */
  typicalLots: number;
  calendar: TradingCalendar;
  /** Order durations and their earnings rates ("0.85" = 85 %). */
  durations: { seconds: number; rate: string }[];
  /** Stake bounds in minor units (1000 = 10.00). */
  minStake: number;
  maxStake: number;
}

/** A fresh copy per product, so editing one product's ladder never edits another's. */
function defaultDurations(): { seconds: number; rate: string }[] {
  return [
    { seconds: 30, rate: '0.80' },
    { seconds: 60, rate: '0.85' },
    { seconds: 120, rate: '0.88' },
    { seconds: 300, rate: '0.90' },
  ];
}

type Row = Omit<ProductSpec, 'tickSize' | 'durations' | 'minStake' | 'maxStake'>;

// Every product quotes in steps of one unit of its last decimal (tickSize 1), like the venues
// the prices are modelled on; the model and its tests also handle coarser tick sizes.
function product(row: Row): ProductSpec {
  return { ...row, tickSize: 1, durations: defaultDurations(), minStake: 1000, maxStake: 5000000 };
}

/**
 * The default catalogue, in display order. Lot sizes and typical lots are chosen so that, at
 * two ticks per second, 24h volumes land in a plausible range for each market.
 */
export const defaultCatalogue: ProductSpec[] = [
  product({
    id: 'BTCUSDT',
    name: 'BTC/USDT',
    category: 'crypto',
    precision: 2,
    startPrice: '67000.00',
    annualVol: 0.6,
    jumpsPerDay: 4,
    lotSize: '0.0001',
    typicalLots: 50,
    calendar: 'crypto',
  }),
  product({
    id: 'ETHUSDT',
    name: 'ETH/USDT',
    category: 'crypto',
    precision: 2,
    startPrice: '3500.00',
    annualVol: 0.7,
    jumpsPerDay: 4,
    lotSize: '0.001',
    typicalLots: 100,
    calendar: 'crypto',
  }),
  product({
    id: 'SOLUSDT',
    name: 'SOL/USDT',
    category: 'crypto',
    precision: 3,
    startPrice: '150.000',
    annualVol: 0.9,
    jumpsPerDay: 5,
    lotSize: '0.01',
    typicalLots: 200,
    calendar: 'crypto',
  }),
  product({
    id: 'XRPUSDT',
    name: 'XRP/USDT',
    category: 'crypto',
    precision: 4,
    startPrice: '0.5500',
    annualVol: 0.8,
    jumpsPerDay: 5,
    lotSize: '1',
    typicalLots: 500,
    calendar: 'crypto',
  }),
  product({
    id: 'DOGEUSDT',
    name: 'DOGE/USDT',
    category: 'crypto',
    precision: 5,
    startPrice: '0.15000',
    annualVol: 1.0,
    jumpsPerDay: 6,
    lotSize: '10',
    typicalLots: 500,
    calendar: 'crypto',
  }),
  product({
    id: 'EURUSD',
    name: 'EUR/USD',
    category: 'forex',
    precision: 5,
    startPrice: '1.08500',
    annualVol: 0.07,
    jumpsPerDay: 1,
    lotSize: '1000',
    typicalLots: 20,
    calendar: 'fx',
  }),
  product({
    id: 'GBPUSD',
    name: 'GBP/USD',
    category: 'forex',
    precision: 5,
    startPrice: '1.27000',
    annualVol: 0.08,
    jumpsPerDay: 1,
    lotSize: '1000',
    typicalLots: 15,
    calendar: 'fx',
  }),
  product({
    id: 'USDJPY',
    name: 'USD/JPY',
    category: 'forex',
    precision: 3,
    startPrice: '150.000',
    annualVol: 0.09,
    jumpsPerDay: 1,
    lotSize: '1000',
    typicalLots: 15,
    calendar: 'fx',
  }),
  product({
    id: 'XAUUSD',
    name: 'XAU/USD',
    category: 'metals',
    precision: 2,
    startPrice: '2350.00',
    annualVol: 0.16,
    jumpsPerDay: 1.5,
    lotSize: '0.01',
    typicalLots: 50,
    calendar: 'fx',
  }),
  product({
    id: 'XAGUSD',
    name: 'XAG/USD',
    category: 'metals',
    precision: 3,
    startPrice: '28.000',
    annualVol: 0.25,
    jumpsPerDay: 1.5,
    lotSize: '0.1',
    typicalLots: 50,
    calendar: 'fx',
  }),
  product({
    id: 'WTIUSD',
    name: 'WTI Crude',
    category: 'energy',
    precision: 2,
    startPrice: '78.00',
    annualVol: 0.35,
    jumpsPerDay: 2,
    lotSize: '1',
    typicalLots: 20,
    calendar: 'fx',
  }),
  product({
    id: 'US500',
    name: 'US500',
    category: 'index',
    precision: 1,
    startPrice: '5200.0',
    annualVol: 0.18,
    jumpsPerDay: 1,
    lotSize: '0.01',
    typicalLots: 50,
    calendar: 'index',
  }),
];

/**
 * Looks a product up by id.
 *
 * @param id the product id, e.g. `BTCUSDT` (exact, case-sensitive)
 * @param catalogue where to look; the default catalogue unless given
 * @returns the product, or `undefined` when there is none with that id
 */
export function findProduct(
  id: string,
  catalogue: readonly ProductSpec[] = defaultCatalogue,
): ProductSpec | undefined {
  return catalogue.find((p) => p.id === id);
}
