import { describe, expect, it } from 'vitest';
import { assertTarget, parseLoadArgs } from './args';
import { parsePrometheus, serverCost } from './report';
import { SeqChecker } from './sample';

describe('parseLoadArgs', () => {
  it('reads the documented flags', () => {
    const o = parseLoadArgs(
      '--url http://127.0.0.1:4000 --clients 500 --channels market,ticks:BTCUSDT --duration 30 --ramp 200/s --sample 3 --metrics http://127.0.0.1:9464/metrics'.split(
        ' ',
      ),
    );
    expect(o).toMatchObject({
      url: 'http://127.0.0.1:4000',
      clients: 500,
      channels: ['market', 'ticks:BTCUSDT'],
      durationSec: 30,
      rampPerSec: 200,
      sample: 3,
      metricsUrl: 'http://127.0.0.1:9464/metrics',
    });
  });

  it('falls back to the caller defaults and refuses bad numbers', () => {
    expect(parseLoadArgs([], { clients: 500, durationSec: 20 })).toMatchObject({
      clients: 500,
      durationSec: 20,
      sample: 5,
    });
    expect(() => parseLoadArgs(['--clients', '0'])).toThrow(/--clients/);
    expect(() => parseLoadArgs(['--duration', 'soon'])).toThrow(/--duration/);
    expect(() => parseLoadArgs(['--bogus'])).toThrow();
  });
});

describe('assertTarget', () => {
  it('accepts loopback and refuses other hosts unless allowed', () => {
    expect(() => assertTarget('http://127.0.0.1:3000')).not.toThrow();
    expect(() => assertTarget('http://localhost:3000')).not.toThrow();
    expect(() => assertTarget('http://[::1]:3000')).not.toThrow();
    expect(() => assertTarget('http://example.com')).toThrow(/allow-remote/);
    expect(() => assertTarget('http://example.com', true)).not.toThrow();
  });
});

describe('SeqChecker', () => {
  it('counts reorders and gaps per product', () => {
    const c = new SeqChecker();
    for (const [id, seq] of [
      ['A', 5],
      ['B', 1],
      ['A', 6],
      ['B', 2],
      ['A', 6], // duplicate
      ['A', 9], // 7 and 8 lost
      ['B', 3],
    ] as const)
      c.see({ id, seq });
    expect(c.violations).toEqual({ backwards: 1, gaps: 1, missing: 2 });
  });
});

describe('Prometheus parsing', () => {
  const text = [
    '# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.',
    '# TYPE process_cpu_seconds_total counter',
    'process_cpu_seconds_total 1.5',
    'process_resident_memory_bytes 104857600',
    'nodejs_heap_size_used_bytes{pid="1"} 2000',
    'something_else 3',
  ].join('\n');

  it('reads the wanted samples only', () => {
    const m = parsePrometheus(text, ['process_cpu_seconds_total', 'nodejs_heap_size_used_bytes']);
    expect([...m]).toEqual([
      ['process_cpu_seconds_total', 1.5],
      ['nodejs_heap_size_used_bytes', 2000],
    ]);
  });

  it('turns two scrapes into deltas and names what is missing', () => {
    const a = { ok: true as const, values: new Map([['process_cpu_seconds_total', 1]]) };
    const b = { ok: true as const, values: new Map([['process_cpu_seconds_total', 3]]) };
    const cost = serverCost(a, b);
    expect(cost.deltas.process_cpu_seconds_total).toBe(2);
    expect(cost.deltas.process_resident_memory_bytes).toBeNull();
    expect(cost.note).toMatch(/process_resident_memory_bytes/);
    expect(serverCost({ ok: false, why: '404' }, b).note).toMatch(/404/);
  });
});
