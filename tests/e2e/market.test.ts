import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { pickInterval } from '@tests/support/chart';
import { defaultCatalogue } from '@sim/catalogue';

/** Issue 3 journeys: live prices on Home, search, the detail chart, and the offline banner. */
describe('market journeys (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '24', SIM_HISTORY_DAYS: '130' });

  const open = async (route: string): Promise<{ page: Page; errors: string[] }> => {
    const { page, errors } = await phonePage(e2e.browser);
    await page.goto(`${e2e.app.url}/#${route}`);
    return { page, errors };
  };
  const priceOf = (page: Page, id: string) =>
    page.getByTestId(`product-row-${id}`).getByTestId('price').innerText();

  it('Home lists all 12 products with a live price and 24h figures, and a price changes', async () => {
    const started = Date.now();
    const { page, errors } = await open('/pages/index/index');
    for (const p of defaultCatalogue) {
      await page
        .getByTestId(`product-row-${p.id}`)
        .getByTestId('price')
        .filter({ hasText: /\d/ })
        .waitFor({ timeout: 10_000 });
    }
    console.log(`Home: 12 live prices on screen after ${Date.now() - started} ms`);
    // The product list is asked for once, at start, beside the page's code and texts: before the
    // language file is even requested, not after the page has been drawn.
    const timing = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime })),
    );
    const productLists = timing.filter((e) => e.path === '/api/market/products');
    const texts = timing.find((e) => /^\/assets\/(en|zh-CN)-[\w-]+\.js$/.test(e.path));
    expect(productLists).toHaveLength(1);
    expect(texts).toBeDefined();
    expect(productLists[0]!.start).toBeLessThan(texts!.start);
    const row = await page.getByTestId('product-row-BTCUSDT').innerText();
    expect(row).toMatch(/BTC\/USDT/);
    expect(row).toMatch(/%/);
    const first = await priceOf(page, 'BTCUSDT');
    await expect.poll(() => priceOf(page, 'BTCUSDT'), { timeout: 15_000 }).not.toBe(first);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('searches the Product list by name', async () => {
    const { page } = await open('/pages/product/product');
    await page.getByTestId('product-row-EURUSD').waitFor();
    await page.getByTestId('search').fill('eth');
    await expect.poll(() => page.locator('[data-testid^="product-row-"]').count()).toBe(1);
    await page.getByTestId('product-row-ETHUSDT').waitFor();
    await page.getByTestId('search').fill('zzz');
    await expect.poll(() => page.locator('[data-testid^="product-row-"]').count()).toBe(0);
    await page.getByTestId('search').fill('');
    await expect.poll(() => page.locator('[data-testid^="product-row-"]').count()).toBe(12);
    await page.close();
  });

  it('opens a detail page with 24 hours of 1-minute candles and months of 4h and daily ones, switches intervals, and the chart keeps updating', async () => {
    const { page, errors } = await open('/pages/index/index');
    await page.getByTestId('product-row-BTCUSDT').click();
    await page.waitForURL(/Detail\/Detail\?id=BTCUSDT/);
    const chart = page.getByTestId('chart');
    await expect
      .poll(() => chart.getAttribute('data-bars').then(Number), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1440);
    const lastBefore = await chart.getAttribute('data-updated');
    await expect
      .poll(() => chart.getAttribute('data-updated'), { timeout: 10_000 })
      .not.toBe(lastBefore);
    // The long intervals open with months of coarse history (SIM_HISTORY_DAYS): at least 90 bars.
    const fewest = { '5m': 51, '1h': 21, '4h': 90, '1d': 90, line: 51, '1m': 51 };
    for (const interval of ['5m', '1h', '4h', '1d', 'line', '1m'] as const) {
      await pickInterval(page, interval);
      await expect.poll(() => chart.getAttribute('data-interval')).toBe(interval);
      await expect
        .poll(() => chart.getAttribute('data-bars').then(Number))
        .toBeGreaterThanOrEqual(fewest[interval]);
    }
    // Volume under every candle; moving average and Bollinger bands as toggles kept on the device.
    await pickInterval(page, '1h');
    await expect.poll(() => chart.getAttribute('data-interval')).toBe('1h');
    await expect
      .poll(async () => [
        await chart.getAttribute('data-volume-bars'),
        await chart.getAttribute('data-bars'),
      ])
      .toEqual([expect.stringMatching(/^\d+$/), expect.stringMatching(/^\d+$/)]);
    expect(await chart.getAttribute('data-volume-bars')).toBe(
      await chart.getAttribute('data-bars'),
    );
    expect(await page.getByTestId('indicator-ma').getAttribute('aria-pressed')).toBe('false');
    await page.getByTestId('indicator-ma').click();
    await page.getByTestId('indicator-boll').click();
    await expect.poll(() => chart.getAttribute('data-indicators')).toBe('ma boll');
    const bars = Number(await chart.getAttribute('data-bars'));
    expect(Number(await chart.getAttribute('data-ma-points'))).toBe(bars - 19);
    expect(Number(await chart.getAttribute('data-boll-points'))).toBe(bars - 19);
    await page.reload();
    await expect.poll(() => chart.getAttribute('data-indicators')).toBe('ma boll');
    expect(await page.getByTestId('indicator-boll').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('interval-line').click();
    await page.getByTestId('indicator-ma').waitFor({ state: 'detached' });

    const price = page.getByTestId('price');
    const p1 = await price.innerText();
    await expect.poll(() => price.innerText(), { timeout: 15_000 }).not.toBe(p1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows "network signal lost" when the server stops and resumes prices when it returns', async () => {
    const { page } = await open('/pages/index/index');
    await page
      .getByTestId('product-row-BTCUSDT')
      .getByTestId('price')
      .filter({ hasText: /\d/ })
      .waitFor();
    await e2e.app.stop();
    await page.getByTestId('network-lost').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('network-lost').innerText()).toContain('网络信号丢失');
    const frozen = await priceOf(page, 'BTCUSDT');
    await e2e.app.start();
    await page.getByTestId('network-lost').waitFor({ state: 'detached', timeout: 30_000 });
    await expect.poll(() => priceOf(page, 'BTCUSDT'), { timeout: 15_000 }).not.toBe(frozen);
    await page.close();
  });
});
