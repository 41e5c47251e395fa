import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Order } from '@shared/orders/model';
import type { TradingStats } from '@shared/orders/stats';
import { formatSignedMoney } from '@client/i18n/format';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { fundByDeposit, logInOverApi, onePixelPng, registerOverApi } from '@tests/support/journey';

/**
 * The trader's statistics page at 390×844: reached from the Orders page's header and the personal
 * centre's menu, it shows the win rate and P&L that GET /api/orders/stats answers, and "No closed
 * orders in this period" to a newcomer.
 */
describe('trading statistics (Chromium, embedded app, English)', () => {
  let serial = 0;
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '0' });
  const newToken = async () =>
    logInOverApi(e2e.app, await registerOverApi(e2e.app, `st_${process.pid % 10_000}_${++serial}`));
  const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();

  const openAt = async (token: string, route: string) => {
    const { context, page, errors } = await phonePage(e2e.browser, { locale: 'en' });
    await context.addInitScript(
      `localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))})`,
    );
    page.setDefaultTimeout(15_000);
    await page.goto(`${e2e.app.url}/#${route}`);
    return { context, page, errors };
  };

  /** A 30 s order on BTCUSDT, retried while the simulator's first ticks arrive. */
  const place = async (token: string, direction: 'up' | 'down', amount: number) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const body = { productId: 'BTCUSDT', direction, amount, duration: 30 };
        return await e2e.api<Order>(
          '/api/orders',
          { method: 'POST', body: JSON.stringify(body) },
          token,
        );
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };

  it('shows a trader the win rate and P&L the API answers, from the Orders page', async () => {
    const token = await newToken();
    await fundByDeposit(e2e.app, token, { channel: 'bank', amount: 100_000 }, onePixelPng);
    const orders = [
      await place(token, 'up', 1_000),
      await place(token, 'down', 2_000),
      await place(token, 'up', 3_000),
    ];
    for (const order of orders)
      await expect
        .poll(async () => (await e2e.api<Order>(`/api/orders/${order.id}`, {}, token)).status, {
          timeout: 60_000,
          interval: 1_000,
        })
        .not.toBe('open');
    const stats = await e2e.api<TradingStats>('/api/orders/stats?days=7', {}, token);
    expect(stats.overall.orders).toBe(3);

    const { context, page, errors } = await openAt(token, '/pages/order/order');
    await page.getByTestId('open-stats').click();
    await page.waitForURL(/#\/pages\/order\/stats/);
    await page.getByTestId('stats-days-7').click();
    await page.getByTestId('stats-overall').waitFor();
    const rate = stats.overall.winRate;
    expect(await text(page, 'stats-win-rate')).toBe(
      rate === null
        ? '–'
        : new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 }).format(
            Math.round(Number(rate) * 1000) / 1000,
          ),
    );
    expect(await text(page, 'stats-pnl')).toContain(formatSignedMoney(stats.overall.pnl, 'en'));
    expect(await text(page, 'stats-orders')).toBe('3');
    expect(await text(page, 'stats-average-stake')).toBe('20.00');
    await page.getByTestId('stats-chart').waitFor();
    expect(await page.getByTestId('stats-by-product').locator('tbody tr').count()).toBe(1);
    expect(await page.getByTestId('stats-by-duration').locator('tbody th').innerText()).toBe(
      '30 sec',
    );
    // Every control is a 44 px target.
    for (const id of ['stats-days-7', 'stats-days-30', 'stats-days-90', 'mode-practice']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
    }
    // Practice has its own figures: none here.
    await page.getByTestId('mode-practice').click();
    await expect
      .poll(() => page.locator('[data-state="empty"] p').innerText())
      .toBe('No closed orders in this period');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('tells a newcomer there is nothing yet, from the personal centre', async () => {
    const { context, page } = await openAt(await newToken(), '/pages/user/user');
    await page.getByTestId('menu-stats').click();
    await page.waitForURL(/#\/pages\/order\/stats/);
    await expect
      .poll(() => page.locator('[data-state="empty"] p').innerText())
      .toBe('No closed orders in this period');
    expect(await text(page, 'empty-action')).toBe('Start a trade');
    await context.close();
  });
});
