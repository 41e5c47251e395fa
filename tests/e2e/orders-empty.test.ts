import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Order } from '@shared/orders/model';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { fundByDeposit, logInOverApi, onePixelPng, registerOverApi } from '@tests/support/journey';

/**
 * Issue 37: the Open tab with nothing open tells a trader who has closed orders so, with the way
 * to them ("No open trades", "See closed trades"); "No orders yet" is for a trader with none.
 */
describe('the Open tab when nothing is open (Chromium, embedded app, English)', () => {
  let serial = 0;
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '0' });
  const newToken = async () =>
    logInOverApi(e2e.app, await registerOverApi(e2e.app, `oe_${process.pid % 10_000}_${++serial}`));
  const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
  const emptyText = (page: Page) => page.locator('[data-state="empty"] p').innerText();

  const ordersPage = async (token: string) => {
    const { context, page } = await phonePage(e2e.browser, { locale: 'en' });
    await context.addInitScript(
      `localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))})`,
    );
    page.setDefaultTimeout(15_000);
    await page.goto(`${e2e.app.url}/#/pages/order/order?tab=positions`);
    return { context, page };
  };

  /** A 30 s "up" order on BTCUSDT, retried while the simulator's first ticks arrive. */
  const place = async (token: string): Promise<Order> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        return await e2e.api<Order>(
          '/api/orders',
          {
            method: 'POST',
            body: JSON.stringify({
              productId: 'BTCUSDT',
              direction: 'up',
              amount: 1_000,
              duration: 30,
            }),
          },
          token,
        );
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };

  it('says “No orders yet” to a trader with none', async () => {
    const { context, page } = await ordersPage(await newToken());
    await expect.poll(() => emptyText(page)).toBe('No orders yet');
    expect(await text(page, 'empty-action')).toBe('Start a trade');
    await context.close();
  });

  it('says “No open trades” and leads to the Closed tab when every order is closed', async () => {
    const token = await newToken();
    await fundByDeposit(e2e.app, token, { channel: 'bank', amount: 100_000 }, onePixelPng);
    const orders = [await place(token), await place(token)];
    for (const order of orders)
      await expect
        .poll(async () => (await e2e.api<Order>(`/api/orders/${order.id}`, {}, token)).status, {
          timeout: 60_000,
          interval: 1_000,
        })
        .not.toBe('open');

    const { context, page } = await ordersPage(token);
    await expect.poll(() => text(page, 'empty-action')).toBe('See closed trades');
    expect(await emptyText(page)).toBe('No open trades');
    await page.getByTestId('empty-action').click();
    await page.waitForURL(/#\/pages\/order\/order\?tab=history$/);
    await expect
      .poll(() => page.getByTestId('tab-history').getAttribute('aria-selected'))
      .toBe('true');
    for (const order of orders) await page.getByTestId(`order-${order.id}`).waitFor();
    await context.close();
  });
});
