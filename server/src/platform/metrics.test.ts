import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@tests/support/api';
import { openTestDb, type TestDb } from '@tests/support/db';
import { closeServer } from './lifecycle';
import { createMetrics, metricsServer } from './metrics';

describe('metrics are private', () => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb('pglite');
    api = await buildTestApi(t.db);
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  it('the public app does not serve /metrics (the balancer sends it everything)', async () => {
    for (const path of ['/metrics', '/metrics/', '/metrics?format=text']) {
      const res = await api.http.get(path);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('process_cpu');
    }
  });

  it('the private listener serves /metrics and nothing else', async () => {
    const metrics = createMetrics('api');
    metrics.placements.inc({ mode: 'real' });
    metrics.placements.inc({ mode: 'practice' });
    const server = metricsServer(metrics.registry);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await res.text();
      // Real and practice placements are counted apart: practice volume never looks like revenue.
      expect(text).toMatch(/^orders_placed_total\{mode="real",role="api"\} 1$/m);
      expect(text).toMatch(/^orders_placed_total\{mode="practice",role="api"\} 1$/m);
      expect(text).toContain('process_resident_memory_bytes');
      for (const path of ['/', '/healthz', '/api/me', '/metrics/x'])
        expect((await fetch(`${base}${path}`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await closeServer(server);
    }
  });
});
