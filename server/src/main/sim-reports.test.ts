import { describe, expect, it } from 'vitest';
import { createMetrics } from '@server/platform/metrics';
import { defaultCatalogue } from '@sim/index';
import { simReportsTo } from './sim-role';

describe("a simulator's metrics", () => {
  it("every product's gap histogram is exported from the start, so its first gap is an increase", async () => {
    const metrics = createMetrics('sim');
    const reports = simReportsTo(metrics);
    const count = async (product: string) =>
      Number(
        new RegExp(
          `^sim_tick_gap_seconds_count\\{[^}]*product="${product}"[^}]*\\} (\\S+)$`,
          'm',
        ).exec(await metrics.registry.metrics())?.[1],
      );
    for (const { id } of defaultCatalogue) expect(await count(id)).toBe(0);
    // A standby's takeover: its first gap is the silence since the leader's last tick.
    reports.gap('BTCUSDT', 4_200);
    expect(await count('BTCUSDT')).toBe(1);
    expect(await metrics.registry.metrics()).toMatch(
      /^sim_tick_gap_seconds_bucket\{le="3",role="sim",product="BTCUSDT"\} 0$/m,
    );
  });
});
