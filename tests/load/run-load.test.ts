import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '@server/gateway/gateway';
import { runLoad, runScenario } from './load';
import { buildReport } from './report';
import { scenarioSchema } from './scenario';
import { startTestGateway, type TestGateway } from './test-gateway';

// runLoad end to end against the real gateway on the in-process bus, with a fake sim that ticks
// every 50 ms: checks the counting (live vs on-subscribe ticks, steady window, order checks).
let t: TestGateway;
let url: string;
let gateway: Gateway;

beforeAll(async () => {
  t = await startTestGateway();
  url = t.url;
  gateway = t.gateway;
});

afterAll(() => t.stop());

describe('runLoad', () => {
  it('connects, counts deliveries and reports latency and order', async () => {
    const lines: string[] = [];
    const report = await runLoad({
      url,
      clients: 40,
      channels: ['market', 'ticks:BTCUSDT'],
      durationSec: 3,
      rampPerSec: 200,
      sample: 2,
      progress: (l) => lines.push(l),
    });
    expect(report.connect).toMatchObject({ connected: 40, failed: 0 });
    expect(report.subscribe).toMatchObject({ ok: 40, failed: 0 });
    expect(report.connect.abandoned).toBe(0);
    expect(report.deliveries.initialTicks).toBe(40); // one last-known tick per subscribe
    expect(report.deliveries.steady).toBe(true);
    // 20 ticks/s to each of 40 clients (800/s); wide margin for timer slop on a busy machine.
    expect(report.deliveries.ticksPerSec).toBeGreaterThan(200);
    expect(report.tickLatency.count).toBeGreaterThan(0);
    expect(report.tickLatency.p50).toBeLessThan(1000);
    expect(report.firstReceiptLatency.count).toBeGreaterThan(0);
    expect(report.errors).toMatchObject({ disconnects: 0, subscribeFailures: 0, clockSkew: 0 });
    expect(report.sample).toMatchObject({ connected: 2, disconnects: 0 });
    expect(report.sample!.violations).toEqual({ backwards: 0, gaps: 0, missing: 0 });
    expect(report.sample!.ticks).toBeGreaterThan(0);
    // The silence of each channel, against its rate (a tick every 50 ms, a snapshot every 1 s).
    expect(report.silences.map((s) => s.channel).sort()).toEqual(['market', 'ticks:BTCUSDT']);
    const ticks = report.silences.find((s) => s.channel === 'ticks:BTCUSDT')!;
    expect(ticks.items).toBeGreaterThan(10);
    expect(ticks.expectedMs).toBeGreaterThan(0);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    // Every socket closed: the server sees them go shortly after.
    for (let i = 0; i < 100 && gateway.io.engine.clientsCount > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(gateway.io.engine.clientsCount).toBe(0);
  });

  it('runs a scenario: ramp, churn, a storm, arrivals and a ramp-down; its own closes are no drops', async () => {
    const scenario = scenarioSchema.parse({
      targets: [url],
      phases: [
        { kind: 'ramp', to: 20, duration: 1 },
        { kind: 'hold', duration: 2 },
        { kind: 'arrival', rate: 10, duration: 1, session: 1 },
        { kind: 'ramp-down', to: 5, duration: 1 },
        { kind: 'hold', duration: 1 },
      ],
      subscribers: { channels: ['ticks:BTCUSDT'] },
      churn: { every: 1, fraction: 0.1 },
      storms: [{ at: 2, fraction: 0.5 }],
      sample: 0,
    });
    const doc = await runScenario(scenario, { progress: () => {} });
    const [p] = doc.processes;
    expect(p!.counters.planned).toBe(30); // 20 ramped + 10 arrivals
    expect(p!.counters.plannedCloses).toBeGreaterThanOrEqual(10 + 15 + 2); // storm, leavers, churn
    const report = buildReport(doc);
    expect(report.connect.failed).toBe(0);
    // Every slot and every reconnect connected, except leavers closed while still connecting.
    expect(report.connect.connected + report.connect.abandoned).toBe(
      p!.counters.planned + p!.counters.plannedCloses - 15 - 10,
    );
    expect(report.errors.disconnects).toBe(0);
    expect(report.subscribe.failed).toBe(0);
    expect(p!.series.length).toBeGreaterThanOrEqual(5);
  });

  it('never writes the operator token into the document', async () => {
    const scenario = scenarioSchema.parse({
      targets: [url],
      operatorToken: 'a-deprecated-secret-token', // the scenario field, deprecated
      phases: [{ kind: 'ramp', to: 1, duration: 1 }],
      subscribers: { channels: ['ticks:BTCUSDT'] },
      sample: 0,
    });
    const doc = await runScenario(scenario, { progress: () => {} });
    expect(doc.scenario.operatorToken).toBeUndefined();
    expect(JSON.stringify(doc)).not.toContain('a-deprecated-secret-token');
    expect(doc.clients).toBe(1);
  });

  it('refuses a remote target', async () => {
    await expect(
      runLoad({
        url: 'http://192.0.2.1:3000',
        clients: 1,
        channels: ['market'],
        durationSec: 1,
        rampPerSec: 1,
        sample: 0,
      }),
    ).rejects.toThrow(/loopback/);
  });
});
