import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useAppAndBrowser } from '@tests/support/e2e';
import { phonePage } from '@tests/support/browser';
import { fundedTrader } from '@tests/support/journey';

/**
 * The chart full screen (DECISIONS, The chart full screen, and intervals in one row): entered
 * upright, kept when the phone turns, the chart filling the viewport with its tools and the
 * ticket's buy pair on screen, an order placed from it drawn on the chart; the phone's Back,
 * Escape and the exit button leave it for the trade screen. Upright at 360 px every interval is
 * in sight without a swipe.
 */
describe('chart full screen (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });
  const live = { timeout: 20_000 };

  const fundedUser = () => fundedTrader(e2e.app, 'fs');

  /** BTCUSDT's trade screen, signed in, its chart drawn. */
  const tradeScreen = async (token: string, viewport: { width: number; height: number }) => {
    const { context, page, errors } = await phonePage(e2e.browser, {
      locale: 'en',
      viewport,
      token,
      consoleErrors: false,
    });
    await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
    await page.getByTestId('buy-up').waitFor(live);
    await expect
      .poll(() => page.getByTestId('chart').getAttribute('data-bars'), live)
      .toMatch(/^[1-9]/);
    return { context, page, errors };
  };

  /** The element's box, asserted wholly inside the viewport. */
  const onScreen = async (page: Page, testId: string) => {
    const viewport = page.viewportSize()!;
    const box = (await page.getByTestId(testId).first().boundingBox())!;
    expect(box, testId).not.toBeNull();
    expect(box.x, testId).toBeGreaterThanOrEqual(0);
    expect(box.y, testId).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, testId).toBeLessThanOrEqual(viewport.width + 0.5);
    expect(box.y + box.height, testId).toBeLessThanOrEqual(viewport.height + 0.5);
    return box;
  };

  /** What is drawn at the element's centre is the element itself (nothing covers it). */
  const uncovered = (page: Page, testId: string) =>
    page.getByTestId(testId).evaluate((el) => {
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return top !== null && el.contains(top);
    });

  const fullscreen = (page: Page) =>
    page.getByTestId('chart-section').getAttribute('data-fullscreen');

  it('enters upright, keeps the mode on its side, trades from it, and Back leaves it for the trade screen', async () => {
    const token = await fundedUser();
    const { context, page, errors } = await tradeScreen(token, { width: 390, height: 844 });
    // The ticket's amount is what the full screen's buttons buy.
    await page.getByTestId('amount').fill('20');

    const enter = page.getByTestId('chart-fullscreen');
    const box = (await enter.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
    await enter.click();
    expect(await fullscreen(page)).toBe('true');
    await page.getByTestId('chart-fullscreen-exit').waitFor();

    // The phone turns: the mode stays, and the chart fills most of the screen.
    await page.setViewportSize({ width: 844, height: 390 });
    await expect
      .poll(async () => (await page.getByTestId('chart').boundingBox())?.width, live)
      .toBeGreaterThanOrEqual(844 * 0.9);
    expect(await fullscreen(page)).toBe('true');
    const chart = await onScreen(page, 'chart');
    expect(chart.height).toBeGreaterThanOrEqual(390 * 0.6);
    expect(chart.width * chart.height).toBeGreaterThanOrEqual(844 * 390 * 0.6);
    // Its tools and the buy pair with the ticket's duration and amount are on screen, uncovered.
    for (const id of [
      'interval-line',
      'interval-1d',
      'indicator-ma',
      'indicator-settings',
      'chart-fullscreen-exit',
      'fullscreen-buy-up',
      'fullscreen-buy-down',
    ]) {
      await onScreen(page, id);
      expect(await uncovered(page, id), id).toBe(true);
    }
    expect(await page.getByTestId('fullscreen-choice').innerText()).toMatch(/sec|min/);
    expect(await page.getByTestId('fullscreen-choice').innerText()).toContain('20.00');
    // An interval picked in the mode applies to the chart.
    await page.getByTestId('interval-1m').click();
    await expect.poll(() => page.getByTestId('chart').getAttribute('data-interval')).toBe('1m');
    // A dialog opened from the mode takes its own Escape: it closes, the mode stays.
    await page.getByTestId('indicator-settings').click();
    const settings = page.getByTestId('indicator-settings-dialog');
    await settings.waitFor();
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });
    expect(await fullscreen(page)).toBe('true');

    // Buy up from the mode: the ticket's confirmation, then the position on the chart.
    await page.getByTestId('fullscreen-buy-up').click();
    await page.getByTestId('confirm-ok').click();
    await expect
      .poll(() => page.getByTestId('chart').getAttribute('data-position-lines'), live)
      .toBe('1');
    await page.getByTestId('position-label').waitFor(live);
    expect(await fullscreen(page)).toBe('true');
    expect(
      await page.getByTestId('positions-strip').getAttribute('data-count', { timeout: 20_000 }),
    ).toBe('1');

    // The phone's Back leaves the mode, not the trade screen.
    await page.goBack();
    await expect.poll(() => fullscreen(page)).toBe('false');
    expect(page.url()).toContain('/pages/Detail/Detail?id=BTCUSDT');
    await page.getByTestId('chart-fullscreen').waitFor();
    // The chart back in the page beside the docked ticket, its position still drawn.
    expect(await page.getByTestId('chart').getAttribute('data-position-lines')).toBe('1');

    // Escape leaves it too; and so does its exit button, leaving no stray history entry.
    await page.getByTestId('chart-fullscreen').click();
    expect(await fullscreen(page)).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => fullscreen(page)).toBe('false');
    await page.getByTestId('chart-fullscreen').click();
    await page.getByTestId('chart-fullscreen-exit').click();
    await expect.poll(() => fullscreen(page)).toBe('false');
    // The mode's history entry is taken off again: the next Back leaves the trade screen.
    await expect
      .poll(() =>
        page.evaluate(() => (history.state as { overlay?: string } | null)?.overlay ?? null),
      )
      .toBeNull();
    expect(errors).toEqual([]);
    // (Back from here leaves for the blank page the journey started on.)
    await page.goBack();
    await expect.poll(() => page.url()).not.toContain('/pages/Detail/Detail');
    await context.close();
  }, 180_000);

  it('upright at 360 px the short intervals and "More" share one row of 44 px targets without a swipe, the indicators in a row of their own', async () => {
    const token = await fundedUser();
    const { context, page, errors } = await tradeScreen(token, { width: 360, height: 780 });
    const ids = await page
      .locator('[data-testid^="interval-"]:visible')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')!));
    expect(ids).toEqual([
      'interval-line',
      'interval-5s',
      'interval-15s',
      'interval-1m',
      'interval-5m',
      'interval-15m',
      'interval-more',
    ]);
    const dock = (await page.getByTestId('ticket-dock').boundingBox())!;
    let lowest = 0;
    for (const id of ids) {
      const box = await onScreen(page, id);
      expect(box.height, id).toBeGreaterThanOrEqual(44);
      expect(box.width, id).toBeGreaterThanOrEqual(44);
      expect(Math.round(box.y), id).toBe(Math.round((await onScreen(page, ids[0]!)).y));
      expect(box.y + box.height, id).toBeLessThanOrEqual(dock.y + 1);
      expect(await uncovered(page, id), id).toBe(true);
      lowest = Math.max(lowest, box.y + box.height);
    }
    // The long intervals are one tap behind "More", which then names the one chosen.
    await page.getByTestId('interval-more').click();
    await page.getByTestId('interval-more-option-4h').click();
    await expect.poll(() => page.getByTestId('chart').getAttribute('data-interval')).toBe('4h');
    expect(await page.getByTestId('interval-more').innerText()).toMatch(/^4h/);
    expect(await page.getByTestId('interval-more').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('interval-1m').click();
    await expect.poll(() => page.getByTestId('interval-more').innerText()).toMatch(/^More/);
    // Nothing scrolled: the row does not scroll sideways, nor the page.
    const row = await page
      .locator('.intervals')
      .evaluate((el) => ({ scroll: el.scrollWidth - el.clientWidth, left: el.scrollLeft }));
    expect(row).toEqual({ scroll: 0, left: 0 });
    expect(await page.evaluate(() => [window.scrollX, window.scrollY])).toEqual([0, 0]);
    // The toggles in their own row under the intervals.
    const ma = await onScreen(page, 'indicator-ma');
    expect(ma.y).toBeGreaterThanOrEqual(lowest - 1);
    await onScreen(page, 'chart-fullscreen');
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
