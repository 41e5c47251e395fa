import { describe, expect, it } from 'vitest';
import type { PublicTick } from '@shared/orders/audit';
import type { Order } from '@shared/orders/model';
import { sellValue } from '@shared/orders/sell-value';
import {
  auditSale,
  type PeriodModel,
  type PublishedTerms,
} from '../../scripts/order-verifier-sale';
import { verifyOrders, type OrderSource } from '../../scripts/order-verifier';

/**
 * verify:orders on sold orders, with fabricated orders and tapes: the worked example of
 * docs/FAIRNESS.md (100.00 up at 85 %, entry 60 000.00, sold at 60 060.00 with 20 s left,
 * σ 0.6, spread 500 bp: 172.55).
 */
const MAX_FEED_DELAY_MS = 3000;
const T0 = 1_800_000_000_000;
const EXPIRES = T0 + 60_000;
const REQUESTED = EXPIRES - 20_100;

const tape: PublicTick[] = [
  { seq: 1, ts: T0 + 100, price: '60000.00' }, // the entry
  { seq: 4, ts: REQUESTED - 50, price: '60010.00' }, // before the sell
  { seq: 6, ts: EXPIRES - 20_000, price: '60070.00' }, // same time as the sale tick, higher seq
  { seq: 5, ts: EXPIRES - 20_000, price: '60060.00' }, // the sale tick
  { seq: 7, ts: EXPIRES - 5_000, price: '60100.00' },
];

const terms: PublishedTerms = {
  precision: 2,
  earlyClose: { annualVol: 0.6, spreadBp: 500, closesBeforeExpiryMs: 10_000 },
};
const period: PeriodModel = {
  periodStart: T0 - 3_600_000,
  periodEnd: T0 + 3_600_000,
  model: { annualVol: 0.6 },
};

/** A sold order as the server answers it, with its payout and P&L following its value. */
function sold(over: Partial<Order> = {}, sale: Partial<NonNullable<Order['sale']>> = {}): Order {
  const s = {
    requestedAt: REQUESTED,
    msLeft: 20_000,
    annualVol: 0.6,
    spreadBp: 500,
    value: 17_255,
    ...sale,
  };
  return {
    id: '42',
    mode: 'real',
    productId: 'BTCUSDT',
    direction: 'up',
    amount: 10_000,
    duration: 60,
    expiry: null,
    rate: '0.85',
    status: 'sold',
    entry: { seq: 1, ts: T0 + 100, price: '60000.00' },
    exit: { seq: 5, ts: EXPIRES - 20_000, price: '60060.00' },
    payout: s.value,
    pnl: s.value - 10_000,
    createdAt: T0,
    expiresAt: EXPIRES,
    settledAt: EXPIRES - 19_990,
    voidReason: null,
    sale: s,
    ...over,
  };
}

const audit = (order: Order, periods: PeriodModel[] = [period], t = tape) =>
  auditSale(order, t, MAX_FEED_DELAY_MS, { terms, periods });

describe('verify:orders on a sold order (scripts/order-verifier-sale.ts)', () => {
  it('passes a sale made as published: the worked example', () => {
    expect(audit(sold())).toEqual([]);
    expect(audit(sold(), [])).toEqual([]);
  });

  it('names a value off by one cent', () => {
    expect(audit(sold({}, { value: 17_256 }))).toEqual([
      'value 172.56, the published formula gives 172.55 (K 60000.00, S 60060.00, 20000 ms left, σ 0.6, spread 500 bp)',
    ]);
    // Paid other than the value: the payout line.
    expect(audit(sold({ payout: 17_256, pnl: 7_256 }))).toEqual([
      "payout 17256, the sale's value is 17255",
      'P&L 7256, the sale gives 7255',
    ]);
  });

  it('names a sale tick that was not the first after the sell: ties go to the lower seq', () => {
    const atSeq6 = sold(
      { exit: { seq: 6, ts: EXPIRES - 20_000, price: '60070.00' } },
      { value: sellAt(60_070_00, 20_000) },
    );
    const problems = audit(atSeq6);
    expect(problems[0]).toBe(
      `sale tick #6 60070.00 at ${EXPIRES - 20_000}, the first tick after the sell (accepted ${REQUESTED}) is #5 60060.00 at ${EXPIRES - 20_000}`,
    );
    expect(problems[1]).toMatch(/^value 174\.46, the published formula gives 172\.55 /);

    // A later tick, its msLeft and value consistent with it: still not the first after the sell.
    const later = sold(
      { exit: { seq: 7, ts: EXPIRES - 5_000, price: '60100.00' } },
      { msLeft: 5_000, value: sellAt(60_100_00, 5_000) },
    );
    expect(audit(later)).toEqual([
      `sale tick #7 60100.00 at ${EXPIRES - 5_000}, the first tick after the sell (accepted ${REQUESTED}) is #5 60060.00 at ${EXPIRES - 20_000}`,
      "msLeft 5000, expiry − the sale tick's time is 20000",
      expect.stringMatching(/^value \d+\.\d\d, the published formula gives 172\.55 /),
    ]);
  });

  it('names a σ other than the published one, against the product and the fairness period', () => {
    const wrongVol = sold({}, { annualVol: 0.5, value: sellAt(60_060_00, 20_000, 0.5) });
    expect(audit(wrongVol)).toEqual([
      'σ 0.5, product BTCUSDT publishes 0.6',
      `σ 0.5, the fairness period from ${period.periodStart} publishes 0.6`,
      expect.stringMatching(/^value \d+\.\d\d, the published formula gives 172\.55 .*σ 0\.6,/),
    ]);
    // The period covering the sale tick published another σ than the product's page shows.
    expect(audit(sold(), [{ ...period, model: { annualVol: 0.7 } }])).toEqual([
      `σ 0.6, the fairness period from ${period.periodStart} publishes 0.7`,
      expect.stringMatching(/^value 172\.55, the published formula gives \d+\.\d\d .*σ 0\.7,/),
    ]);
  });

  it('names a sale with no tick after it before expiry, or accepted in the last stretch', () => {
    const noTick = tape.filter((t) => t.seq === 1 || t.seq === 4);
    expect(audit(sold(), [period], noTick)).toEqual([
      `sold at #5 60060.00 at ${EXPIRES - 20_000}, but no tick came after the sell (accepted ${REQUESTED}) before expiry`,
    ]);
    const late = sold({}, { requestedAt: EXPIRES - 10_000 });
    expect(audit(late)[0]).toBe(
      'sell accepted 10000 ms before expiry: a sell needs more than 10000 ms left',
    );
  });

  it('names a value above the payout of a win', () => {
    expect(audit(sold({}, { value: 18_600 }))).toContain(
      'value 186.00 is above the payout of a win, 185.00',
    );
  });

  it('verifyOrders checks sold orders with the product read once, and counts them', async () => {
    const reads: string[] = [];
    const source: OrderSource = {
      closedOrders: (mode) =>
        Promise.resolve(mode === 'real' ? [sold(), sold({ id: '43' }, { value: 17_256 })] : []),
      ticks: () => Promise.resolve(tape),
      product: (id) => {
        reads.push(id);
        return Promise.resolve(terms);
      },
      periods: () => Promise.resolve([period]),
    };
    const report = await verifyOrders(source, {
      modes: ['real', 'practice'],
      maxFeedDelayMs: MAX_FEED_DELAY_MS,
    });
    expect(report.byStatus).toEqual({ sold: 2 });
    expect(report.mismatches.map((m) => m.order.id)).toEqual(['43']);
    expect(report.mismatches[0]!.problems).toEqual([expect.stringMatching(/^value 172\.56,/)]);
    expect(reads).toEqual(['BTCUSDT']);
  });
});

function sellAt(price: number, msLeft: number, annualVol = 0.6): number {
  return sellValue({
    direction: 'up',
    amount: 10_000,
    rateBp: 8_500,
    entryPrice: 60_000_00,
    price,
    msLeft,
    annualVol,
    spreadBp: 500,
  });
}
