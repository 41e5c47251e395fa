import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { ChartDrawing } from '@shared/drawings/model';
import { useAppAndBrowser } from '@tests/support/e2e';
import { logInOverApi, registerOverApi } from '@tests/support/journey';

/**
 * Chart drawings as a trader makes them on a phone (DECISIONS, Chart drawings, kept on the
 * server per user and product): on BTCUSDT's chart the line tool, a tap on the chart, and a
 * horizontal line lies at the tapped price, stored on the server. The same user on another
 * device (a browser context of its own, its own login) sees it when the page opens; removed
 * there, it leaves the first device's chart at once (the `drawings` event, no reload); a trend
 * line drawn by two taps on the first reaches the second at once, and "Clear all" clears both.
 */
describe('chart drawings (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });
  const live = { timeout: 20_000 };

  /** A phone of its own (another device), signed in with `token`, English. */
  const device = async (
    token: string,
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> => {
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en',
      deviceScaleFactor: 1,
      hasTouch: true,
      serviceWorkers: 'block',
    });
    await context.addInitScript(
      `localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))});` +
        `localStorage.setItem('i18nLang', '"en"');`,
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { context, page, errors };
  };

  /** Opens BTCUSDT's trade screen and waits for its chart's bars. */
  const openChart = async (page: Page) => {
    await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
    const chart = page.getByTestId('chart');
    await expect.poll(() => chart.getAttribute('data-bars').then(Number), live).toBeGreaterThan(0);
    return chart;
  };
  const lines = (page: Page) => page.getByTestId('chart').getAttribute('data-drawing-lines');

  it('a line drawn by a tap, and a trend line by two, are kept on the server and shown, removed and cleared on both devices', async () => {
    const user = await registerOverApi(
      e2e.app,
      `draw${process.pid % 10_000}_${Date.now() % 100_000}`,
    );
    const [tokenA, tokenB] = [await logInOverApi(e2e.app, user), await logInOverApi(e2e.app, user)];
    const stored = () =>
      e2e
        .api<{ items: ChartDrawing[] }>('/api/drawings?product=BTCUSDT', {}, tokenA)
        .then((r) => r.items);

    const a = await device(tokenA);
    const chartA = await openChart(a.page);
    expect(await lines(a.page)).toBe('');
    // The tools are 44 px, on the screen.
    for (const id of ['drawing-tool-hline', 'drawing-tool-trend', 'drawing-list-toggle']) {
      const box = (await a.page.getByTestId(id).boundingBox())!;
      expect(box.width, id).toBeGreaterThanOrEqual(44);
      expect(box.height, id).toBeGreaterThanOrEqual(44);
      expect(box.x + box.width, id).toBeLessThanOrEqual(390);
    }

    // The line tool, then a tap in the middle of the price pane.
    await a.page.getByTestId('drawing-tool-hline').tap();
    await a.page.getByTestId('drawing-hint').waitFor();
    const box = (await chartA.boundingBox())!;
    await a.page
      .getByTestId('drawing-capture')
      .tap({ position: { x: Math.round(box.width / 2), y: Math.round(box.height / 3) } });
    await expect.poll(() => stored().then((d) => d.length), live).toBe(1);
    const [line] = await stored();
    expect(line).toMatchObject({ product: 'BTCUSDT', kind: 'hline' });
    expect(line!.points[0]!.price).toMatch(/^\d+\.\d{2}$/);
    await expect.poll(() => lines(a.page), live).toBe(line!.points[0]!.price);
    // The tool turned itself off: the chart scrolls again under a tap.
    expect(await a.page.getByTestId('drawing-capture').count()).toBe(0);

    // Another device of the same user sees it as its page opens.
    const b = await device(tokenB);
    await openChart(b.page);
    await expect.poll(() => lines(b.page), live).toBe(line!.points[0]!.price);
    await b.page.getByTestId('drawing-list-toggle').tap();
    const item = b.page.getByTestId('drawing-item-hline');
    await item.waitFor();
    expect(await item.textContent()).toContain(
      Number(line!.points[0]!.price).toLocaleString('en', { minimumFractionDigits: 2 }),
    );

    // Removed there: gone from the server, and from the first device's chart without a reload.
    await item.getByTestId('drawing-remove').tap();
    await expect.poll(() => stored().then((d) => d.length), live).toBe(0);
    await expect.poll(() => lines(b.page), live).toBe('');
    await expect.poll(() => lines(a.page), live).toBe('');

    // A trend line by two taps on the first device reaches the second at once; "Clear all"
    // there takes it from both.
    const trends = (page: Page) => page.getByTestId('chart').getAttribute('data-trend-lines');
    await a.page.getByTestId('drawing-tool-trend').tap();
    const capture = a.page.getByTestId('drawing-capture');
    await capture.tap({
      position: { x: Math.round(box.width / 4), y: Math.round(box.height / 2) },
    });
    await expect
      .poll(() => a.page.getByTestId('drawing-hint').textContent())
      .toContain('second point');
    await capture.tap({
      position: { x: Math.round(box.width / 2), y: Math.round(box.height / 4) },
    });
    await expect.poll(() => stored().then((d) => d.map((x) => x.kind)), live).toEqual(['trend']);
    const [trend] = await stored();
    expect(trend!.points[0]!.time).toBeLessThan(trend!.points[1]!.time);
    expect(Number(trend!.points[0]!.price)).toBeLessThan(Number(trend!.points[1]!.price));
    await expect.poll(() => trends(a.page), live).toBe('1');
    await expect.poll(() => trends(b.page), live).toBe('1');
    await b.page.getByTestId('drawing-clear').tap();
    await expect.poll(() => stored().then((d) => d.length), live).toBe(0);
    await expect.poll(() => trends(a.page), live).toBe('0');
    await expect.poll(() => trends(b.page), live).toBe('0');

    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});
