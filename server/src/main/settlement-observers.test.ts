import { describe, expect, it } from 'vitest';
import { createMetrics } from '@server/platform/metrics';
import { lagWindow } from '@server/platform/process-reports';
import { defaultCatalogue } from '@sim/index';
import { settlementObservers } from './settlement-observers';

describe("settlement's metrics", () => {
  it('count each decided order by result and product, and each void by reason', async () => {
    const metrics = createMetrics('worker');
    const o = settlementObservers(metrics, lagWindow());
    o.onSettled!(120, { status: 'won', mode: 'real', productId: 'BTCUSDT', voidReason: null });
    o.onSettled!(90, {
      status: 'void',
      mode: 'real',
      productId: 'BTCUSDT',
      voidReason: 'FEED_STALE',
    });
    o.onEntry!(3000, 'void', {
      status: 'void',
      mode: 'practice',
      productId: 'ETHUSDT',
      voidReason: 'NO_ENTRY_TICK',
    });
    o.onEntry!(40, 'entered', {
      status: 'open',
      mode: 'real',
      productId: 'ETHUSDT',
      voidReason: null,
    });
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'orders_settled_total{status="won",mode="real",product="BTCUSDT",role="worker"} 1',
    );
    expect(text).toContain(
      'orders_settled_total{status="void",mode="practice",product="ETHUSDT",role="worker"} 1',
    );
    expect(text).toContain(
      'orders_voided_total{reason="FEED_STALE",product="BTCUSDT",mode="real",role="worker"} 1',
    );
    expect(text).toContain(
      'orders_voided_total{reason="NO_ENTRY_TICK",product="ETHUSDT",mode="practice",role="worker"} 1',
    );
    expect(text).not.toContain('status="open"');
  });

  it('every product, mode, result and void reason is exported from the start, at 0', async () => {
    const metrics = createMetrics('api');
    settlementObservers(metrics, lagWindow());
    const text = await metrics.registry.metrics();
    // A series born at its first increment would hide it (and a burst of voids) from increase().
    for (const product of defaultCatalogue.map((p) => p.id))
      for (const mode of ['real', 'practice']) {
        for (const status of ['won', 'lost', 'draw', 'void'])
          expect(text).toContain(
            `orders_settled_total{status="${status}",mode="${mode}",product="${product}",role="api"} 0`,
          );
        for (const reason of ['FEED_STALE', 'NO_ENTRY_TICK'])
          expect(text).toContain(
            `orders_voided_total{reason="${reason}",product="${product}",mode="${mode}",role="api"} 0`,
          );
      }
  });
});
