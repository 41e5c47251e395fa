import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Order } from '@shared/orders/model';
import type { Product } from '@shared/product';
import { useAppAndBrowser } from '@tests/support/e2e';
import { phonePage } from '@tests/support/browser';
import { fundedTrader, runOps } from '@tests/support/journey';

/**
 * The trade screen's layout (issue 37): on its side (844×390) the chart and a compact ticket
 * beside it, both buy buttons reachable without a scroll; upright (390×844) the balance, the
 * positions strip and the indicator toggles above the fold; positions labelled on the chart with
 * their stake and P&L, one label for those that crowd; a product that is not trading shows its
 * last prices and when it opens instead of an empty chart.
 */
describe('trade screen layout (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });
  const live = { timeout: 20_000 };

  const fundedUser = () => fundedTrader(e2e.app, 'ts');

  const signedIn = (token: string, viewport: { width: number; height: number }) =>
    phonePage(e2e.browser, { locale: 'en', viewport, token, consoleErrors: false });

  const place = (token: string, product: Product, direction: 'up' | 'down', seconds: number) =>
    e2e.api<Order>(
      '/api/orders',
      {
        method: 'POST',
        body: JSON.stringify({
          productId: product.id,
          direction,
          amount: 10_000,
          duration: seconds,
          rate: product.durations.find((d) => d.seconds === seconds)!.rate,
          mode: 'real',
        }),
        headers: { 'Idempotency-Key': `${Date.now().toString(16)}${Math.random()}`.slice(0, 32) },
      },
      token,
    );

  /** The element's box lies wholly inside the viewport. */
  const onScreen = async (
    page: Page,
    testId: string,
    viewport: { width: number; height: number },
  ) => {
    const box = (await page.getByTestId(testId).first().boundingBox())!;
    expect(box, testId).not.toBeNull();
    expect(box.x, testId).toBeGreaterThanOrEqual(0);
    expect(box.y, testId).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, testId).toBeLessThanOrEqual(viewport.width + 0.5);
    expect(box.y + box.height, testId).toBeLessThanOrEqual(viewport.height + 0.5);
    return box;
  };

  /** What is drawn at the centre of the element is the element itself (nothing covers it). */
  const uncovered = (page: Page, testId: string) =>
    page.getByTestId(testId).evaluate((el) => {
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return top !== null && el.contains(top);
    });

  it('on its side (844×390): the chart takes the screen, the ticket stands beside it, no scroll', async () => {
    const token = await fundedUser();
    const viewport = { width: 844, height: 390 };
    const { context, page, errors } = await signedIn(token, viewport);
    await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
    await page.getByTestId('buy-up').waitFor();
    await expect
      .poll(() => page.getByTestId('chart').getAttribute('data-bars'), live)
      .toMatch(/^[1-9]/);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const chart = await onScreen(page, 'chart', viewport);
    const up = await onScreen(page, 'buy-up', viewport);
    await onScreen(page, 'buy-down', viewport);
    await onScreen(page, 'amount', viewport);
    await onScreen(page, 'duration-30', viewport);
    await onScreen(page, 'available-balance', viewport);
    expect(await uncovered(page, 'buy-up')).toBe(true);
    expect(await uncovered(page, 'buy-down')).toBe(true);
    // Beside, not under: the chart is left of the ticket and takes most of the screen.
    expect(chart.x + chart.width).toBeLessThanOrEqual(up.x);
    expect(chart.width).toBeGreaterThanOrEqual(viewport.width * 0.5);
    expect(chart.height).toBeGreaterThanOrEqual(viewport.height * 0.5);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('upright (390×844): balance, positions strip and indicator toggles above the fold; crowded positions share one label with stake and P&L', async () => {
    const token = await fundedUser();
    const product = await e2e.api<Product>('/api/market/products/BTCUSDT');
    const longest = Math.max(...product.durations.map((d) => d.seconds));
    const viewport = { width: 390, height: 844 };
    const { context, page, errors } = await signedIn(token, viewport);
    await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
    await page.getByTestId('buy-up').waitFor();
    await expect
      .poll(() => page.getByTestId('chart').getAttribute('data-bars'), live)
      .toMatch(/^[1-9]/);
    // Three at once on the same expiry: one label, not three stacked.
    for (const direction of ['up', 'down', 'up'] as const)
      await place(token, product, direction, longest);
    await page.getByTestId('positions-strip').waitFor(live);
    await expect
      .poll(() => page.getByTestId('positions-strip').getAttribute('data-count'), live)
      .toBe('3');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    const dock = await onScreen(page, 'ticket-dock', viewport);
    await onScreen(page, 'available-balance', viewport);
    for (const id of ['positions-strip', 'indicator-ma', 'indicator-boll']) {
      const box = await onScreen(page, id, viewport);
      expect(box.y + box.height, id).toBeLessThanOrEqual(dock.y + 1);
    }
    expect(await uncovered(page, 'indicator-ma')).toBe(true);

    // The chart takes the positions from its own stream, which can trail the strip by a tick:
    // wait for one label holding all three (the CI run once met it while it held two).
    const label = page.getByTestId('position-label');
    await expect
      .poll(
        async () => `${await label.count()}:${await label.first().getAttribute('data-count')}`,
        live,
      )
      .toBe('1:3');
    await expect.poll(() => label.innerText(), live).toMatch(/^3 positions ·\s+[+−]?\d+\.\d\d$/);
    expect(await label.getAttribute('data-stake')).toBe('300.00');
    expect(await page.getByTestId('chart').getAttribute('data-position-lines')).toBe('3');
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('a product that is not trading shows its last prices and when it opens, not an empty chart', async () => {
    const token = await fundedUser();
    const viewport = { width: 390, height: 844 };
    const opensAt = new Date(Date.now() + 2 * 3_600_000);
    opensAt.setSeconds(0, 0);
    await runOps(
      e2e.app,
      'products',
      'maintenance',
      'SOLUSDT',
      'on',
      '--opens-at',
      opensAt.toISOString(),
    );
    try {
      await expect
        .poll(async () => (await e2e.api<Product>('/api/market/products/SOLUSDT')).status, live)
        .toBe('maintenance');
      const { context, page, errors } = await signedIn(token, viewport);
      await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=SOLUSDT`);
      const note = page.getByTestId('chart-closed');
      await note.waitFor(live);
      const when = await page.evaluate(
        (ms) =>
          new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(ms),
        opensAt.getTime(),
      );
      expect(await note.innerText()).toContain(`Opens at ${when}`);
      // The history up to the stop, in 1-minute candles.
      await expect
        .poll(() => page.getByTestId('chart').getAttribute('data-bars'), live)
        .toMatch(/^[1-9]/);
      expect(await page.getByTestId('chart').getAttribute('data-interval')).toBe('1m');
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await runOps(e2e.app, 'products', 'maintenance', 'SOLUSDT', 'off');
    }
  }, 180_000);
});
