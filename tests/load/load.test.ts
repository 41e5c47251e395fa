import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertGatewayUrl, assertTarget, parseCli, parseLoadArgs } from './args';
import { mergeDocuments } from './merge';
import { buildReport, formatReport } from './report';
import {
  encodeHistogram,
  mergeResults,
  newHistogram,
  zeroCounters,
  type LoadDocument,
  type ProcessResult,
} from './results';
import { SeqChecker } from './sample';
import { SilenceTracker } from './silence';
import { loadScenario, peakClients, planSlots, scenarioFromFlags } from './scenario';
import {
  parsePrometheusSamples,
  readingOf,
  serverFigures,
  sumOf,
  type Reading,
} from './server-metrics';
import { checkThresholds, parseThresholds, withDefaults } from './thresholds';
import { engineUrl } from './wire';

describe('parseCli', () => {
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
    const cli = parseCli(['--json', 'a.json', '--processes', '2', '--fail-on', 'p99<50ms,gaps=0']);
    expect(cli).toMatchObject({ jsonFile: 'a.json', processes: 2 });
    expect(cli.thresholds.map((t) => t.figure)).toEqual(['p99', 'gaps']);
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
    expect(() => parseCli(['--fail-on', 'p98<5ms'])).toThrow(/unknown figure p98/);
  });

  it('reads the arrival-rate flags, which replace --clients and --ramp', () => {
    const o = parseLoadArgs(
      '--arrival-rate 50/s --duration 20 --session 60s --max-clients 2000'.split(' '),
    );
    expect(o.arrival).toEqual({ rate: 50, sessionSec: 60, maxClients: 2000 });
    expect(parseLoadArgs(['--arrival-rate', '5']).arrival).toEqual({ rate: 5 });
    expect(parseLoadArgs([]).arrival).toBeUndefined();
    expect(() => parseLoadArgs(['--arrival-rate', '5', '--clients', '9'])).toThrow(
      /replaces --clients/,
    );
    expect(() => parseLoadArgs(['--max-clients', '9'])).toThrow(/go with --arrival-rate/);
    expect(() => parseLoadArgs(['--arrival-rate', '5', '--session', '1m'])).toThrow(/--session/);
    // No flag for the operator token: it would land in shell history and `ps`.
    expect(() => parseCli(['--operator-token', 'x'])).toThrow();
  });

  it('refuses a URL with a path rather than dropping it', () => {
    expect(() => parseLoadArgs(['--url', 'http://127.0.0.1:3000/trade'])).toThrow(/without a path/);
    expect(() => assertGatewayUrl('http://127.0.0.1:3000/')).not.toThrow();
    expect(() => engineUrl('http://127.0.0.1:3000/trade')).toThrow(/without a path/);
    expect(engineUrl('http://127.0.0.1:3000')).toBe(
      'ws://127.0.0.1:3000/socket.io/?EIO=4&transport=websocket',
    );
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

describe('SilenceTracker', () => {
  it('keeps the longest wait for a new item per channel, a silence at the end included', () => {
    const s = new SilenceTracker();
    expect(s.heard('ticks:A', 1, 0)).toBe(true);
    expect(s.heard('ticks:A', 1, 10)).toBe(false); // the same tick at another client
    expect(s.heard('ticks:A', 2, 500)).toBe(true);
    expect(s.heard('ticks:A', 3, 3600)).toBe(true); // a 3.1 s stall
    expect(s.heard('market', 1000, 0)).toBe(true);
    expect(s.summary(4000)).toEqual({
      'ticks:A': { longestMs: 3100, items: 3, spanMs: 4000 },
      market: { longestMs: 4000, items: 1, spanMs: 4000 }, // nothing after the first
    });
  });
});

describe('scenarios', () => {
  const dir = path.join(import.meta.dirname, 'scenarios');
  it.each(readdirSync(dir))('the example %s is valid', (file) => {
    expect(loadScenario(path.join(dir, file)).phases.length).toBeGreaterThan(0);
  });

  it('plans a ramp, a hold, a ramp-down and arrivals as connect slots', () => {
    const slots = planSlots([
      { kind: 'ramp', to: 4, duration: 2 },
      { kind: 'hold', duration: 1 },
      { kind: 'ramp-down', to: 2, duration: 2 },
      { kind: 'arrival', rate: 2, duration: 1, session: 5 },
    ]);
    expect(slots.map((s) => s.at)).toEqual([0, 500, 1000, 1500, 5000, 5500]);
    expect(slots.filter((s) => s.leave !== undefined).map((s) => s.leave)).toEqual([
      5000, 4000, 10_000, 10_500,
    ]);
  });

  it('builds the quick path from the flags', () => {
    const s = scenarioFromFlags({
      url: 'http://127.0.0.1:3000',
      clients: 100,
      rampPerSec: 50,
      durationSec: 10,
      channels: ['market'],
      sample: 0,
      connectTimeoutMs: 5000,
      metricsUrls: [],
    });
    expect(s.phases).toEqual([
      { kind: 'ramp', to: 100, duration: 2 },
      { kind: 'hold', duration: 8 },
    ]);
    expect(s.connectTimeout).toBe(5);
    const open = scenarioFromFlags({
      url: 'http://127.0.0.1:3000',
      clients: 100,
      rampPerSec: 50,
      durationSec: 30,
      channels: ['market'],
      sample: 0,
      connectTimeoutMs: 5000,
      metricsUrls: [],
      arrival: { rate: 20, sessionSec: 10, maxClients: 150 },
    });
    expect(open.phases).toEqual([
      { kind: 'arrival', rate: 20, duration: 30, session: 10, maxClients: 150 },
    ]);
    expect(peakClients(open)).toBe(150); // 20/s × 10 s = 200 wanted, capped
    expect(
      peakClients({ phases: [{ kind: 'arrival', rate: 20, duration: 30, session: 10 }] }),
    ).toBe(200);
    expect(planSlots(open.phases).every((slot) => slot.arrival?.phase === 0)).toBe(true);
    // Arriving traders are numbered over the plan, and a later ramp counts subscribers only.
    const mixed = planSlots([
      { kind: 'arrival', who: 'traders', rate: 2, duration: 1, session: 10 },
      { kind: 'arrival', rate: 1, duration: 1 },
      { kind: 'ramp', to: 3, duration: 1 },
    ]);
    expect(mixed.map((slot) => slot.arrival?.n ?? null)).toEqual([0, 1, 2, null, null]);
  });
});

describe('thresholds', () => {
  it('names each broken one with the figure and by how much', () => {
    const t = parseThresholds('p99<50ms, silence<2s, subscribeFailures=0, orderP99<1s');
    const broken = checkThresholds(t, { p99: 73.25, silence: 3100, subscribeFailures: 0 });
    expect(broken.map((b) => b.message)).toEqual([
      'p99<50ms broken: p99 was 73.25 ms (off by 23.25 ms)',
      'silence<2s broken: silence was 3100 ms (off by 1100 ms)',
      'orderP99<1s: not measured in this run',
    ]);
  });

  it('takes percentages for the connect failure rate, and only there', () => {
    const [t] = parseThresholds('connectFailureRate<1.5%');
    expect(t).toMatchObject({ figure: 'connectFailureRate', op: '<', value: 1.5 });
    expect(parseThresholds('connectFailureRate<=2')[0]!.value).toBe(2);
    expect(() => parseThresholds('p99<5%')).toThrow(/not a percentage/);
    expect(() => parseThresholds('connectFailureRate<5ms')).toThrow(/a percentage/);
    expect(checkThresholds([t!], { connectFailureRate: 75 })[0]!.message).toBe(
      'connectFailureRate<1.5% broken: connectFailureRate was 75% (off by 73.50%)',
    );
  });

  it('applies connectFailures=0 unless the caller names a connect-failure figure', () => {
    const texts = (spec: string) =>
      withDefaults(parseThresholds(spec)).map((t) => `${t.text}${t.byDefault ? ' *' : ''}`);
    expect(texts('')).toEqual(['connectFailures=0 *']);
    expect(texts('p99<50ms')).toEqual(['p99<50ms', 'connectFailures=0 *']);
    expect(texts('connectFailureRate<1%')).toEqual(['connectFailureRate<1%']);
    expect(texts('connectFailures<=3,gaps=0')).toEqual(['connectFailures<=3', 'gaps=0']);
    const [broken] = checkThresholds(withDefaults([]), { connectFailures: 750 });
    expect(broken!.message).toBe(
      'connectFailures=0 (default) broken: connectFailures was 750 (off by 750)',
    );
  });
});

describe('server metrics', () => {
  it('reads samples with their labels and sums the wanted ones', () => {
    const s = parsePrometheusSamples(
      [
        '# TYPE gateway_deliveries_total counter',
        'gateway_deliveries_total{event="tick",role="gateway"} 10',
        'gateway_deliveries_total{event="market",role="gateway"} 5',
        'process_cpu_seconds_total 1.5',
      ].join('\n'),
    );
    expect(sumOf(s, 'gateway_deliveries_total', 'event="tick"')).toBe(10);
    expect(sumOf(s, 'gateway_deliveries_total')).toBe(15);
    expect(sumOf(s, 'nodejs_heap_size_used_bytes')).toBeNull();
  });

  it("a gateway of two processes: their costs add up, its delay is the later worker's", () => {
    const r = readingOf(
      parsePrometheusSamples(
        [
          'process_cpu_seconds_total{role="gateway",process="1"} 1.5',
          'process_cpu_seconds_total{role="gateway",process="2"} 2',
          'gateway_connected_sockets{role="gateway",process="1"} 40',
          'gateway_connected_sockets{role="gateway",process="2"} 0',
          'nodejs_eventloop_lag_p99_seconds{role="gateway",process="1"} 0.01',
          'nodejs_eventloop_lag_p99_seconds{role="gateway",process="2"} 0.2',
          'nodejs_eventloop_lag_max_seconds{role="gateway",process="1"} 0.05',
          'nodejs_eventloop_lag_max_seconds{role="gateway",process="2"} 0.4',
        ].join('\n'),
      ),
      0,
    );
    expect(r).toMatchObject({
      cpuSec: 3.5,
      sockets: 40,
      eventLoopP99Sec: 0.2,
      eventLoopMaxSec: 0.4,
      rssBytes: null,
    });
  });

  const reading = (t: number, heapBytes: number): Reading => ({
    t,
    cpuSec: t / 1000,
    rssBytes: null,
    heapBytes,
    eventLoopP99Sec: 0.01,
    eventLoopMaxSec: 0.02,
    sockets: 100,
    tickDeliveries: t,
    deliveries: t,
    clientTicks: t - 10,
  });

  it('takes memory per connection from the lowest readings, never a negative figure', () => {
    const series = {
      url: 'u',
      role: 'gateway',
      errors: [],
      readings: [reading(0, 50e6), reading(100, 40e6)],
    };
    // Loaded: garbage at 90 MB, after a GC 60 MB: 20 MB over the idle low, for 100 connections.
    series.readings.push(reading(2000, 90e6), reading(3000, 60e6), reading(4000, 70e6));
    const f = serverFigures(series, { idleBefore: 100, from: 2000, to: 4000 }, 100);
    expect(f.heapPerConnKiB).toBeCloseTo(20e6 / 100 / 1024);
    expect(f.loss).toBe(0);
    // A GC that makes the loaded lows lower than the idle ones gives no figure, and says why.
    const gc = {
      ...series,
      readings: [reading(0, 80e6), reading(2000, 60e6), reading(3000, 61e6)],
    };
    const g = serverFigures(gc, { idleBefore: 0, from: 2000, to: 3000 }, 100);
    expect(g.heapPerConnKiB).toBeNull();
    expect(g.note).toMatch(/not measurable/);
  });
});

describe('merging', () => {
  const result = (samplesUs: number[], index: number): ProcessResult => {
    const h = newHistogram();
    for (const v of samplesUs) h.recordValue(v);
    const empty = encodeHistogram(newHistogram());
    return {
      pid: index,
      host: 'h',
      index,
      startedAt: 0,
      wallSec: 10,
      steady: true,
      windowSec: 9,
      counters: {
        ...zeroCounters(),
        connected: 10,
        ticks: samplesUs.length,
        steadyTicks: samplesUs.length,
      },
      connectFailures: {},
      subscribeErrors: {},
      orderErrors: {},
      histograms: {
        tick: encodeHistogram(h),
        first: empty,
        snapshot: empty,
        connect: empty,
        order: empty,
        balance: empty,
      },
      silences: { 'ticks:A': { longestMs: 100 * (index + 1), items: 40, spanMs: 9000 } },
      series: [],
      sample: null,
      clock: null,
      loadProcess: { cpuSec: 1, cpuPctOfOneCore: 10, rssMb: 50, eventLoopP99Ms: 1 },
      warnings: [],
    };
  };

  it('adds histograms: the merged percentiles are those of every raw sample together', () => {
    // Two hosts with different latencies: averaging their p99s would be wrong.
    let seed = 7;
    const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const a = Array.from({ length: 5000 }, () => Math.round(1000 + rnd() * 4000));
    const b = Array.from({ length: 3000 }, () => Math.round(20_000 + rnd() * 80_000));
    const all = newHistogram();
    for (const v of [...a, ...b]) all.recordValue(v);
    const merged = mergeResults([result(a, 0), result(b, 1)]).histograms.tick;
    for (const p of [50, 90, 99, 99.9, 100])
      expect(merged.getValueAtPercentile(p)).toBe(all.getValueAtPercentile(p));
    expect(merged.totalCount).toBe(8000);
  });

  it('merges documents into one report: counters add, silences take the worst', () => {
    const doc = (r: ProcessResult): LoadDocument => ({
      format: 'tradeapp-load/1',
      createdAt: '',
      scenario: scenarioFromFlags({
        url: 'http://127.0.0.1:3000',
        clients: 10,
        rampPerSec: 10,
        durationSec: 10,
        channels: ['ticks:A'],
        sample: 0,
        connectTimeoutMs: 1000,
        metricsUrls: [],
      }),
      processes: [r],
      server: [],
      serverReadings: [],
    });
    const report = buildReport(
      mergeDocuments([doc(result([1000, 2000], 0)), doc(result([3000], 1))]),
    );
    expect(report.processes).toBe(2);
    expect(report.connect.connected).toBe(20);
    // Each part ran the whole 10-client scenario: the header counts both.
    expect(report.clients).toBe(20);
    expect(formatReport(report)).toMatch(/^── load report: 20 clients →/);
    const three = mergeDocuments([
      doc(result([1], 0)),
      { ...doc(result([1], 1)), clients: 30 },
      mergeDocuments([doc(result([1], 2)), doc(result([1], 3))]),
    ]);
    expect(buildReport(three).clients).toBe(10 + 30 + 20);
    expect(report.tickLatency.count).toBe(3);
    expect(report.silences).toEqual([
      { channel: 'ticks:A', longestMs: 200, items: 40, spanMs: 9000, expectedMs: 225 },
    ]);
    expect(() => mergeDocuments([{ format: 'x' } as unknown as LoadDocument])).toThrow(
      /not a load document/,
    );
  });
});
