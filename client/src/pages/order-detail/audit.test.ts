import { describe, expect, it } from 'vitest';
import type { Order, TickRef } from '@shared/orders/model';
import { entryAudit, exitAudit, saleAudit } from './audit';

const tick = (seq: number, ts: number): TickRef => ({ seq, ts, price: `${100 + seq}.00` });
// One tick every 500 ms, seq 1…20 at ts 1 000…10 500.
const tape = Array.from({ length: 20 }, (_, i) => tick(i + 1, 1_000 + i * 500));

const base: Order = {
  id: '7',
  mode: 'real',
  productId: 'BTCUSDT',
  direction: 'up',
  amount: 100,
  duration: 4,
  expiry: null,
  rate: '0.85',
  status: 'won',
  entry: tick(4, 2_500),
  exit: tick(12, 6_500),
  payout: 185,
  pnl: 85,
  createdAt: 2_000, // a tick (seq 3) lies exactly at acceptance: it must not be the entry
  expiresAt: 6_500, // a tick (seq 12) lies exactly at expiry: it is the exit
  settledAt: 7_000,
  voidReason: null,
  sale: null,
};
const seqs = (rows: ReturnType<typeof entryAudit>['rows']) =>
  rows.map((r) => (r.kind === 'tick' ? r.tick.seq : 'at'));

describe('order audit against the tape', () => {
  it('entry: three ticks at or before acceptance, the moment, then the first after it chosen', () => {
    const audit = entryAudit([...tape].reverse(), base);
    expect(seqs(audit.rows)).toEqual([1, 2, 3, 'at', 4, 5, 6]);
    expect(audit.ruleTick?.seq).toBe(4);
    expect(audit.agrees).toBe(true);
    expect(audit.rows.filter((r) => r.kind === 'tick' && r.chosen)).toHaveLength(1);
  });

  it('exit: the last tick at or before expiry is chosen, then the moment, then later ticks', () => {
    const audit = exitAudit(tape, base);
    expect(seqs(audit.rows)).toEqual([10, 11, 12, 'at', 13, 14, 15]);
    expect(audit.ruleTick?.seq).toBe(12);
    expect(audit.agrees).toBe(true);
  });

  it('says so when the recorded tick is not the one the rule picks from this tape', () => {
    expect(entryAudit(tape, { ...base, entry: tick(5, 3_000) }).agrees).toBe(false);
  });

  it('has no verdict before the order has its tick', () => {
    const open = { ...base, status: 'open' as const, entry: null, exit: null };
    expect(entryAudit(tape, open).agrees).toBeNull();
    expect(exitAudit(tape, open).agrees).toBeNull();
  });

  it('never picks an exit before the entry', () => {
    const audit = exitAudit([tick(1, 1_000)], { ...base, entry: tick(4, 2_500), exit: null });
    expect(audit.ruleTick).toBeNull();
  });
});

describe('a sold order against the tape', () => {
  it('the sale tick is the first tick after the sale was accepted', () => {
    const sold: Order = {
      ...base,
      status: 'sold',
      exit: tick(9, 5_000),
      sale: { requestedAt: 4_500, msLeft: 1_500, annualVol: 0.6, spreadBp: 500, value: 120 },
    };
    const audit = saleAudit(tape, sold);
    // seq 8 lies exactly at acceptance: it must not be the sale tick.
    expect(seqs(audit.rows)).toEqual([6, 7, 8, 'at', 9, 10, 11]);
    expect(audit.ruleTick?.seq).toBe(9);
    expect(audit.agrees).toBe(true);
    expect(saleAudit(tape, { ...sold, exit: tick(10, 5_500) }).agrees).toBe(false);
  });
});
