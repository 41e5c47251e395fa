import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';

/**
 * Issue 18 (search): the product list finds a market by its code or by its name in the reader's
 * language, and the list a phone shows equals the server's answer to the same query
 * (`GET /api/market/products?q=`), so both sides use one rule.
 */
describe('product search (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '0' });

  /** The product ids the list shows, top to bottom. */
  const shownIds = (page: Page) =>
    page
      .locator('[data-testid^="product-row-"]')
      .evaluateAll((rows) =>
        rows.map((r) => r.getAttribute('data-testid')!.replace('product-row-', '')),
      );
  const serverIds = async (q: string) => {
    const res = await fetch(`${e2e.app.url}/api/market/products?q=${encodeURIComponent(q)}`);
    const body = (await res.json()) as { id: string }[] | { items: { id: string }[] };
    return (Array.isArray(body) ? body : body.items).map((p) => p.id).sort();
  };

  /** Types `q` and waits until the list shows exactly `expected` (sorted), which the server shows too. */
  const expectSearch = async (page: Page, q: string, expected: string[]) => {
    await page.getByTestId('search').fill(q);
    await expect
      .poll(async () => (await shownIds(page)).sort(), { timeout: 10_000 })
      .toEqual(expected);
    expect(await serverIds(q)).toEqual(expected);
  };

  it.each([
    {
      locale: 'zh-CN',
      queries: [
        ['黄金', ['XAUUSD']],
        ['金', ['XAUUSD']],
        ['比特币', ['BTCUSDT']],
        ['btc', ['BTCUSDT']],
      ],
    },
    {
      locale: 'en',
      queries: [
        ['gold', ['XAUUSD']],
        ['Bitcoin', ['BTCUSDT']],
        ['btc', ['BTCUSDT']],
      ],
    },
  ] as { locale: string; queries: [string, string[]][] }[])(
    'finds markets by code and by their $locale names, and an empty query shows them all',
    async ({ locale, queries }) => {
      const { context, page, errors } = await phonePage(e2e.browser, { locale });
      await page.goto(`${e2e.app.url}/#/pages/product/product`);
      await page.getByTestId('product-row-BTCUSDT').waitFor();
      const all = (await shownIds(page)).sort();
      expect(all.length).toBe(12);
      expect(all).toEqual(await serverIds(''));

      for (const [q, expected] of queries) await expectSearch(page, q, expected);

      // Nothing matches: an empty state says so, rather than a blank page.
      await page.getByTestId('search').fill('zzzz');
      await expect.poll(() => shownIds(page)).toEqual([]);
      await page.locator('[data-state="empty"]').waitFor();
      // Clearing the box brings every market back.
      await page.getByTestId('search').fill('');
      await expect.poll(async () => (await shownIds(page)).sort()).toEqual(all);
      expect(errors).toEqual([]);
      await context.close();
    },
    120_000,
  );
});
