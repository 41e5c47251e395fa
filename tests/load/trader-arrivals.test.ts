import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppUnderTest } from '@tests/support/browser';
import { runScenario } from './load';
import { buildReport, formatReport } from './report';
import { scenarioSchema } from './scenario';

/**
 * Traders arriving at a rate (the open model) against the embedded app: each registers on the
 * operator's invitation, is funded, opens its signed-in socket, places orders for its session and
 * leaves; every one's balance must still equal its ledger at the end.
 */
const OPERATOR_TOKEN = 'load-arrivals-operator-token';
let app: AppUnderTest;

beforeAll(async () => {
  // TRUST_PROXY: each trader's X-Forwarded-For gets its own registration limit.
  app = await startApp({ OPERATOR_TOKEN, TRUST_PROXY: 'loopback' });
}, 180_000);
afterAll(() => app?.dispose());

describe('trader arrivals', { timeout: 180_000 }, () => {
  it('each arriving trader signs in, trades for its session and leaves', async () => {
    const scenario = scenarioSchema.parse({
      targets: [app.url],
      phases: [
        { kind: 'arrival', who: 'traders', rate: 2, duration: 3, session: 3, maxClients: 10 },
        // Generous: a sign-in (register, login, a deposit approved) takes seconds on a busy host.
        { kind: 'hold', duration: 25 },
      ],
      subscribers: { channels: ['market'] },
      traders: {
        count: 0,
        accounts: 'register',
        fund: 100_000,
        orderEvery: 1,
        forwardedFor: true,
      },
      sample: 0,
    });
    const doc = await runScenario(scenario, { progress: () => {}, operatorToken: OPERATOR_TOKEN });
    const report = buildReport(doc);
    console.log(formatReport(report));
    expect(report.arrivals).toMatchObject({ started: 6, dropped: 0 });
    expect(report.arrivals!.peakConcurrent).toBeGreaterThan(0);
    expect(report.arrivals!.peakConcurrent).toBeLessThanOrEqual(6);
    const t = report.traders!;
    expect(t).toMatchObject({ count: 6, ready: 6, failed: 0, eventsMissing: 0 });
    expect(t.errors).toEqual({});
    expect(t.ok).toBeGreaterThanOrEqual(6);
    expect(t.orderEvent.count).toBe(t.ok);
    expect(t).toMatchObject({ balanceChecked: 6, balanceMismatches: 0 });
    // The light clients: none (every arrival was a trader).
    expect(report.connect.connected).toBe(0);
    expect(formatReport(report)).toMatch(
      /arrivals\s+traders 2\/s for 3 s each \(cap 10\): 6 arrived/,
    );
  });
});
