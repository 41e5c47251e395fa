import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';

/**
 * The chart's indicators on a phone: RSI, MACD and the stochastic each in a pane of their own
 * under the price, their toggles reachable upright and on its side, a period changed in the
 * settings dialog and kept on the device across a reload.
 */
describe('chart indicators (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '2' });
  const live = { timeout: 20_000 };
  const keys = ['ma', 'ema', 'boll', 'rsi', 'macd', 'stoch'];

  /** The bars and an indicator's points, read together (a new bar may come between two reads). */
  const points = (page: Page, key: string) =>
    page.getByTestId('chart').evaluate(
      (el: HTMLElement, k) => ({
        bars: Number(el.dataset.bars),
        points: Number(el.dataset[`${k}Points`]),
      }),
      key,
    );
  const missing = (page: Page, key: string) =>
    points(page, key).then(({ bars, points: n }) => bars - n);

  /** Each toggle and the gear: 44 px, on screen once scrolled to, the page not wider than the screen. */
  const reachable = async (page: Page, width: number) => {
    for (const key of [...keys.map((k) => `indicator-${k}`), 'indicator-settings']) {
      const button = page.getByTestId(key);
      await button.scrollIntoViewIfNeeded();
      const box = (await button.boundingBox())!;
      expect(box.height, key).toBeGreaterThanOrEqual(44);
      expect(box.width, key).toBeGreaterThanOrEqual(44);
      expect(box.x, key).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, key).toBeLessThanOrEqual(width + 0.5);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
  };

  it('RSI, MACD and Stochastic open panes; a period set in the dialog holds after a reload', async () => {
    const { context, page, errors } = await phonePage(e2e.browser, { locale: 'en' });
    await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
    const chart = page.getByTestId('chart');
    await page.getByTestId('interval-1m').click();
    await expect.poll(() => chart.getAttribute('data-interval'), live).toBe('1m');
    await expect.poll(() => chart.getAttribute('data-bars').then(Number), live).toBeGreaterThan(60);
    expect(await chart.getAttribute('data-pane-count')).toBe('1');
    await reachable(page, 390);

    for (const key of ['rsi', 'macd', 'stoch']) {
      await page.getByTestId(`indicator-${key}`).click();
      expect(await page.getByTestId(`indicator-${key}`).getAttribute('aria-pressed')).toBe('true');
    }
    await expect.poll(() => chart.getAttribute('data-panes')).toBe('rsi macd stoch');
    expect(await chart.getAttribute('data-pane-count')).toBe('4');
    expect(await missing(page, 'rsi')).toBe(14);
    expect(await missing(page, 'macd')).toBe(25);
    expect(await missing(page, 'stoch')).toBe(13);
    // Turned off, its pane goes and the others close up.
    await page.getByTestId('indicator-macd').click();
    await expect.poll(() => chart.getAttribute('data-panes')).toBe('rsi stoch');
    expect(await chart.getAttribute('data-pane-count')).toBe('3');
    await page.getByTestId('indicator-macd').click();
    await expect.poll(() => chart.getAttribute('data-panes')).toBe('rsi macd stoch');

    // RSI over 21 bars instead of 14.
    await page.getByTestId('indicator-settings').click();
    const dialog = page.getByTestId('indicator-settings-dialog');
    await dialog.waitFor();
    const period = page.getByTestId('indicator-rsi-period');
    expect(await period.inputValue()).toBe('14');
    await period.fill('21');
    await page.getByTestId('indicator-settings-apply').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => missing(page, 'rsi')).toBe(21);
    expect(await page.getByTestId('indicator-rsi').getAttribute('aria-label')).toBe(
      'RSI: Relative strength index (21)',
    );
    // Out of bounds, the dialog does not apply it.
    await page.getByTestId('indicator-settings').click();
    await period.fill('1');
    await page.getByTestId('indicator-settings-apply').click();
    expect(await period.evaluate((el: HTMLInputElement) => el.validity.rangeUnderflow)).toBe(true);
    await page.getByTestId('indicator-settings-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    // A closed dialog takes its history entry off with history.back() a moment after it is gone
    // (back-closes.ts); a reload started before that lands is aborted by it (net::ERR_ABORTED).
    await page.waitForFunction(
      () => (window.history.state as { overlay?: unknown } | null)?.overlay === undefined,
    );

    await page.reload();
    await expect.poll(() => chart.getAttribute('data-panes'), live).toBe('rsi macd stoch');
    await expect.poll(() => chart.getAttribute('data-bars').then(Number), live).toBeGreaterThan(60);
    expect(await missing(page, 'rsi')).toBe(21);
    await page.getByTestId('indicator-settings').click();
    expect(await page.getByTestId('indicator-rsi-period').inputValue()).toBe('21');
    await page.getByTestId('indicator-settings-cancel').click();

    // On its side the toggles are reachable too.
    await page.setViewportSize({ width: 844, height: 390 });
    await reachable(page, 844);
    // The line view has none.
    await page.getByTestId('interval-line').click();
    await expect.poll(() => chart.getAttribute('data-panes')).toBe('');
    await page.getByTestId('indicator-rsi').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
