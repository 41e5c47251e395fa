import { beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '@shared/product';
import { routeAppEnv, seedRouteData, type RouteSeed } from '@tests/support/route-visits';
import { opsAuth } from '@tests/support/wallet';
import { useAppAndBrowser } from '@tests/support/e2e';
import { shootVariant, visualVariants } from './visual-guard';
import { compareShot, describeFailure, writeBaseline } from './visual-compare';

/**
 * The visual regression guard (issue 37, docs/TESTING.md "Visual guard"): every route and every
 * overlay, open, at 390×844 and 360×780, in zh-CN light, English dark and German light, against
 * tests/visual/baselines/. A failure names the actual and diff images it wrote to
 * artifacts/visual/. `npm run visual:update` (VISUAL_UPDATE=1) writes the baselines instead.
 */
const updating = process.env.VISUAL_UPDATE === '1';

/**
 * Forex, metals, energy and indices keep market hours by the real clock (closed at weekends),
 * so the lists would show them open or closed by the day of the run: during the run they are
 * under maintenance until a fixed date instead, whatever the day. Crypto trades around the clock.
 */
async function fixMarketHours(url: string): Promise<void> {
  const products = (await (await fetch(`${url}/api/market/products`)).json()) as Product[];
  for (const p of products.filter((x) => x.category !== 'crypto')) {
    const res = await fetch(`${url}/api/ops/products/${p.id}/maintenance`, {
      method: 'POST',
      headers: { ...opsAuth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ on: true, opensAt: Date.UTC(2030, 0, 7, 8) }),
    });
    if (!res.ok) throw new Error(`maintenance ${p.id}: ${res.status} ${await res.text()}`);
  }
  // The status reaches the api with the simulator's next market state (once a second).
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const now = (await (await fetch(`${url}/api/market/products`)).json()) as Product[];
    if (now.every((x) => x.category === 'crypto' || x.status === 'maintenance')) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the maintenance did not reach the product list within 30 s');
}

describe('visual guard (Chromium, embedded app, seeded feed, fixed clock)', () => {
  let seed: RouteSeed;
  const e2e = useAppAndBrowser({
    ...routeAppEnv,
    SIM_RANDOMNESS: 'seeded',
    SIM_SEED: '20260101',
  });
  beforeAll(async () => {
    seed = await seedRouteData(e2e.app.url);
    await fixMarketHours(e2e.app.url);
  }, 120_000);

  it.each(visualVariants)(
    '$lang $theme: every route and overlay matches its baseline',
    async (variant) => {
      const shots = await shootVariant(e2e.browser, e2e.app.url, seed, variant);
      expect(shots.length).toBeGreaterThan(50);
      if (updating) {
        shots.forEach(writeBaseline);
        return;
      }
      const failures = shots.map(compareShot).filter((c) => c.actualPath);
      expect(
        failures.map(describeFailure),
        `${failures.length} of ${shots.length} screenshots differ from tests/visual/baselines/ ` +
          '(docs/TESTING.md, Visual guard; `npm run visual:update` to accept them on purpose)',
      ).toEqual([]);
    },
    300_000,
  );
});
