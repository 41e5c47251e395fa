import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useAppAndBrowser } from '@tests/support/e2e';
import {
  routeAppEnv,
  seedRouteData,
  storageScript,
  watchNetwork,
  type RouteSeed,
} from '@tests/support/route-visits';

/**
 * Issue 17: a page visit asks the api for each thing once. On a phone-sized page, signed in as
 * the seeded trader, the order list, the fund records and the personal centre (the account's
 * figures) each send every distinct /api/ request exactly once: no duplicate, and no first
 * attempt cancelled and sent again.
 */
describe('requests per page visit (Chromium, embedded app, 390×844)', () => {
  let seed: RouteSeed;

  const e2e = useAppAndBrowser(routeAppEnv);
  beforeAll(async () => {
    seed = await seedRouteData(e2e.app.url);
  }, 180_000);

  /** Opens `route` in a fresh signed-in context, waits for `shown`, returns the /api/ traffic. */
  const visit = async (route: string, shown: (page: Page) => Promise<unknown>) => {
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'zh-CN',
      deviceScaleFactor: 1,
      hasTouch: true,
    });
    await context.addInitScript(storageScript(seed, 'trader', 'zh-CN'));
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const sent: string[] = [];
    const failed: string[] = [];
    const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');
    page.on('request', (r) => {
      if (isApi(r.url())) sent.push(`${r.method()} ${r.url().slice(e2e.app.url.length)}`);
    });
    page.on('requestfailed', (r) => {
      if (isApi(r.url())) failed.push(`${r.method()} ${r.url()}: ${r.failure()?.errorText}`);
    });
    const net = watchNetwork(page);
    await page.goto(`${e2e.app.url}/#${route}`);
    await shown(page);
    // Whatever the page still sends after drawing its content counts too.
    await net.settle(500);
    await context.close();
    const counts = new Map<string, number>();
    for (const r of sent) counts.set(r, (counts.get(r) ?? 0) + 1);
    return { sent, failed, repeated: [...counts].filter(([, n]) => n > 1) };
  };

  const expectEachOnce = (
    traffic: Awaited<ReturnType<typeof visit>>,
    mustInclude: RegExp,
  ): void => {
    expect(traffic.failed).toEqual([]);
    expect(traffic.repeated).toEqual([]);
    expect(traffic.sent.filter((r) => mustInclude.test(r))).toHaveLength(1);
  };

  it('the order list asks for its orders once', async () => {
    const traffic = await visit('/pages/order/order?tab=positions', (page) =>
      page.getByTestId('list-positions').locator('li').first().waitFor(),
    );
    expectEachOnce(traffic, /^GET \/api\/orders\?/);
  });

  it('the fund records ask for their page once', async () => {
    const traffic = await visit('/pages/money-record/money-record', (page) =>
      page.getByTestId('ledger-list').locator('li').first().waitFor(),
    );
    expectEachOnce(traffic, /^GET \/api\/wallet\/ledger/);
  });

  it('the personal centre asks for the account summary once', async () => {
    const traffic = await visit('/pages/user/user', (page) =>
      expect.poll(() => page.getByTestId('available-balance').innerText()).toMatch(/\d/),
    );
    expectEachOnce(traffic, /^GET \/api\/account\/summary/);
  });
});
