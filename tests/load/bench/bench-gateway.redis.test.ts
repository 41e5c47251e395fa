import { describe, expect, it } from 'vitest';
import { formatBench, parseBenchArgs, runBench } from '../bench-gateway';

// The benchmark end to end at a toy size: three server processes, the publisher, light clients,
// on the machine's Redis (the redis tier). Figures are not checked, only that each server
// delivered what was published and every row was filled in.
describe('bench:gateway', () => {
  it('runs the three servers and prints their rows and ratios', async () => {
    const o = parseBenchArgs(['--subscribers', '20', '--duration', '1', '--warmup', '0.5']);
    const lines: string[] = [];
    const rows = await runBench(o, (l) => lines.push(l));
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    for (const r of rows) {
      expect(r.subscribed, r.id).toBe(20);
      expect(r.drops, r.id).toBe(0);
      expect(r.sent, r.id).toBeGreaterThan(0);
      expect(r.received, r.id).toBeGreaterThan(0);
      expect(r.tick.count, r.id).toBeGreaterThan(0);
      expect(Number.isFinite(r.cpuUsPerDelivery), r.id).toBe(true);
    }
    expect(lines.some((l) => l.includes('measuring'))).toBe(true);
    const text = formatBench(o, rows);
    expect(text).toContain('(c)/(a)');
    expect(text).toContain('(c)/(b)');
  }, 180_000);
});
