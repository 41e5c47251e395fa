import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Product } from '@shared/product';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { fundedTrader, placeLongPosition } from '@tests/support/journey';

/**
 * The quick switcher on the trade screen: a trader watching three markets, with positions open
 * on two, moves between them in one tap each; every chip shows its live price and how many
 * positions are open on it, and the chart of the product switched to draws from the history
 * loaded while the strip showed (no history request for it after the tap).
 */
describe('quick product switcher (Chromium, embedded app, 390×844)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });
  const live = { timeout: 20_000 };

  const bars = (page: Page) => page.getByTestId('chart').getAttribute('data-bars');
  const drawn = (page: Page) => expect.poll(() => bars(page), live).toMatch(/^[1-9]/);
  /** The interval the chart draws, and the one its switcher marks as chosen. */
  const shownInterval = async (page: Page) =>
    `${await page.getByTestId('chart').getAttribute('data-interval')}`;
  const pickedInterval = async (page: Page) =>
    `${await page.locator('.intervals [aria-pressed="true"]').getAttribute('data-testid')}`.replace(
      'interval-',
      '',
    );

  it('switches between three markets in one tap each, with prices, open counts and the chart at once', async () => {
    const token = await fundedTrader(e2e.app, 'sw');
    const all = await e2e.api<Product[]>('/api/market/products');
    const [a, b, c] = all.filter((p) => p.status === 'open' && p.durations.length > 0);
    expect(c, 'three trading products').toBeDefined();
    if (!a || !b || !c) return;
    await placeLongPosition(e2e.app, token, a);
    await placeLongPosition(e2e.app, token, a);
    await placeLongPosition(e2e.app, token, b);

    const { context, page, errors } = await phonePage(e2e.browser, { locale: 'en', token });
    // Every chart history request, by product, in the order sent.
    const history: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (/\/api\/market\/(candles|ticks)$/.test(url.pathname))
        history.push(url.searchParams.get('product') ?? '?');
    });

    // The trader opens the three trade screens (the strip remembers them), the last one is c.
    for (const product of [a, b, c]) {
      await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=${product.id}`);
      await page.getByTestId('buy-up').waitFor(live);
      await drawn(page);
    }
    const strip = page.getByTestId('product-switcher');
    await strip.waitFor(live);
    await expect.poll(() => strip.getByRole('link').count(), live).toBe(3);
    const chip = (p: Product) => page.getByTestId(`switch-${p.id}`);
    expect(await chip(c).getAttribute('aria-current')).toBe('page');
    // The open counts: two on a, one on b, none on c.
    await expect.poll(() => page.getByTestId(`switch-open-${a.id}`).innerText(), live).toBe('2');
    await expect.poll(() => page.getByTestId(`switch-open-${b.id}`).innerText(), live).toBe('1');
    expect(await page.getByTestId(`switch-open-${c.id}`).count()).toBe(0);
    expect(await chip(a).getAttribute('aria-label')).toMatch(/^Switch to .+, 2 open$/);
    for (const p of [a, b, c])
      await expect
        .poll(() => page.getByTestId(`switch-price-${p.id}`).innerText(), live)
        .toMatch(/\d/);
    // 44 px targets, the row within the phone's width.
    const box = (await chip(a).boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    const row = (await strip.boundingBox())!;
    expect(row.x + row.width).toBeLessThanOrEqual(390.5);

    const depth = await page.evaluate(() => window.history.length);
    for (const target of [a, b]) {
      const sentBefore = history.length;
      await chip(target).tap();
      await page.waitForURL(new RegExp(`id=${target.id}$`), live);
      await expect.poll(() => chip(target).getAttribute('aria-current'), live).toBe('page');
      // The ticket's duration is in and the chart draws its interval: every load is done.
      await page.getByTestId('buy-up').waitFor(live);
      await expect
        .poll(async () => (await shownInterval(page)) === (await pickedInterval(page)), live)
        .toBe(true);
      await drawn(page);
      expect(history.slice(sentBefore).filter((p) => p === target.id)).toEqual([]);
      // Replaced, not pushed: Back still leaves the trade screen.
      expect(await page.evaluate(() => window.history.length)).toBe(depth);
    }
    expect(await page.getByTestId(`switch-open-${a.id}`).innerText()).toBe('2');

    // On its side (844×390): one compact line of 44 px chips, the chart and the ticket still fit.
    await page.setViewportSize({ width: 844, height: 390 });
    await expect.poll(async () => (await strip.boundingBox())!.height, live).toBeLessThan(56);
    const tops = await strip
      .getByRole('link')
      .evaluateAll((links) => links.map((l) => Math.round(l.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    expect((await chip(a).boundingBox())!.height).toBeGreaterThanOrEqual(44);
    const up = (await page.getByTestId('buy-up').boundingBox())!;
    expect(up.y + up.height).toBeLessThanOrEqual(390.5);
    expect((await page.getByTestId('chart').boundingBox())!.height).toBeGreaterThanOrEqual(150);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
