import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import { useAppAndBrowser } from '@tests/support/e2e';
import { logInOverApi, registerOverApi } from '@tests/support/journey';

/**
 * Expiry at a clock time as a trader uses it (docs/PRODUCT.md, Expiry at a clock time): on a
 * phone's trade screen the ticket offers "ends at hh:mm" for this minute and the next, each with
 * the rate its time left gets; choosing the next minute, the confirmation says when it ends, and
 * the order placed ends exactly on that minute, its duration the seconds it had left.
 */
describe('an order ending at a clock time (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '0' });
  const live = { timeout: 20_000 };

  it('places a practice order ending at the end of the next minute', async () => {
    const account = `clock_${process.pid % 10_000}_${Date.now() % 100_000}`;
    const token = await logInOverApi(e2e.app, await registerOverApi(e2e.app, account));
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en',
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
    await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
    // A newcomer without real money trades practice money.
    await expect
      .poll(() => page.getByTestId('mode-practice').getAttribute('aria-pressed'), live)
      .toBe('true');
    const next = page.getByTestId('expiry-next_minute_end');
    await next.waitFor(live);
    // Its label names the minute it ends at and the seconds left (at least 60 s for the next one).
    const label = (await page.getByTestId('expiry-label-next_minute_end').textContent())!;
    const [, hhmm, seconds] = /Ends at (\d\d:\d\d), (\d+) s left/.exec(label)!;
    expect(Number(seconds)).toBeGreaterThanOrEqual(60);
    await next.click();
    await expect.poll(() => next.getAttribute('aria-pressed'), live).toBe('true');
    // Every chip is a 44 px target and the whole row is within the screen's width.
    const box = (await next.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.getByTestId('amount').fill('10');
    await page.getByTestId('buy-up').click();
    const duration = page.getByTestId('confirm-duration');
    await duration.waitFor(live);
    expect(await duration.textContent()).toMatch(/^Ends at \d\d:\d\d$/);
    await page.getByTestId('confirm-ok').click();
    const item = page.locator('[data-testid^="position-item-"]');
    await item.first().waitFor(live);
    const id = (await item.first().getAttribute('data-testid'))!.replace('position-item-', '');
    const order = await e2e.api<Order>(`/api/orders/${id}`, {}, token);
    expect(order.mode).toBe('practice');
    expect(order.expiry).toBe('next_minute_end');
    expect(order.expiresAt % 60_000).toBe(0);
    expect(order.expiresAt - order.createdAt).toBeGreaterThanOrEqual(30_000);
    expect(order.duration).toBe(Math.floor((order.expiresAt - order.createdAt) / 1000));
    // It ends on the minute the ticket named (or the next, had the minute rolled before the tap).
    const ends = await page.evaluate(
      (ms) =>
        new Date(ms).toLocaleTimeString('en', {
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }),
      order.expiresAt,
    );
    const minutes = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3));
    expect((minutes(ends) - minutes(hhmm!) + 1440) % 1440).toBeLessThanOrEqual(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
