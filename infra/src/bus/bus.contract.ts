import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BusMessage } from '@shared/bus';
import type { Bus } from './bus';
import { eventually } from '@tests/support/wait';

const tick = (seq: number): BusMessage => ({
  type: 'tick',
  tick: { id: 'BTCUSDT', seq, ts: 1_700_000_000_000 + seq, price: '67000.01' },
});

/** The behaviour every Bus implementation owes its users. `make` returns a fresh bus each call. */
export function busContract(make: () => Bus) {
  let buses: Bus[] = [];
  const open = () => {
    const b = make();
    buses.push(b);
    return b;
  };
  beforeEach(() => {
    buses = [];
  });
  afterEach(async () => {
    await Promise.all(buses.map((b) => b.close()));
  });

  it('delivers a published message to a subscriber of its type, intact', async () => {
    const bus = open();
    const got: BusMessage[] = [];
    await bus.subscribe('tick', (m) => got.push(m));
    await eventually(() => bus.ready(), 5000, 'bus ready');
    await bus.publish(tick(1));
    await eventually(() => got.length === 1);
    expect(got[0]).toEqual(tick(1));
  });

  it('keeps publish order per type', async () => {
    const bus = open();
    const seqs: number[] = [];
    await bus.subscribe('tick', (m) => seqs.push(m.tick.seq));
    await eventually(() => bus.ready(), 5000, 'bus ready');
    for (let i = 1; i <= 200; i++) await bus.publish(tick(i));
    await eventually(() => seqs.length === 200);
    expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });

  it('routes by type: a subscriber never sees other types', async () => {
    const bus = open();
    const ticks: BusMessage[] = [];
    const products: BusMessage[] = [];
    await bus.subscribe('tick', (m) => ticks.push(m));
    await bus.subscribe('product', (m) => products.push(m));
    await eventually(() => bus.ready(), 5000, 'bus ready');
    await bus.publish({ type: 'product', product: { id: 'US500', status: 'closed', opensAt: 1 } });
    await bus.publish(tick(1));
    await eventually(() => ticks.length === 1 && products.length === 1);
    expect(ticks.every((m) => m.type === 'tick')).toBe(true);
    expect(products.every((m) => m.type === 'product')).toBe(true);
  });

  it('fans out to every subscriber, and an unsubscribed handler hears nothing more', async () => {
    const bus = open();
    const a: number[] = [];
    const b: number[] = [];
    const offA = await bus.subscribe('tick', (m) => a.push(m.tick.seq));
    await bus.subscribe('tick', (m) => b.push(m.tick.seq));
    await eventually(() => bus.ready(), 5000, 'bus ready');
    await bus.publish(tick(1));
    await eventually(() => a.length === 1 && b.length === 1);
    await offA();
    await bus.publish(tick(2));
    await eventually(() => b.length === 2);
    expect(a).toEqual([1]);
  });

  it('carries messages between two bus instances of the same kind (processes share it)', async () => {
    const publisher = open();
    const subscriber = open();
    const got: number[] = [];
    await subscriber.subscribe('tick', (m) => got.push(m.tick.seq));
    await eventually(() => publisher.ready() && subscriber.ready(), 5000, 'buses ready');
    await publisher.publish(tick(7));
    await eventually(() => got.length === 1);
    expect(got).toEqual([7]);
  });

  it('refuses to publish after close', async () => {
    const bus = make();
    await bus.close();
    await expect(bus.publish(tick(1))).rejects.toThrow();
  });
}
