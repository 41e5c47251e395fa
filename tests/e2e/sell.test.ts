import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Order, SellOrderBody, TradeMode } from '@shared/orders/model';
import type { AccountSummary } from '@shared/wallet/model';
import { useAppAndBrowser } from '@tests/support/e2e';
import {
  fundByDeposit,
  logInOverApi,
  onePixelPng as png,
  registerOverApi,
} from '@tests/support/journey';
import { countResultToasts } from '@tests/support/result-toasts';

/**
 * Early close as a trader does it (docs/FAIRNESS.md, Early close): on the BTCUSDT trade screen of
 * a phone, a 5-minute order waits for its entry, then its Sell button shows a live value that
 * follows the ticks; a tap sells it at the first tick after the server accepts, the position
 * closes, the result toast says "Sold" with the value (once), the balance grows by it, and the
 * server's order is `sold` with payout = its sale's value. A refused sale (SELL_PRICE_CHANGED)
 * sells nothing and offers the new value. A position still waiting for its entry cannot be sold.
 * Real money and practice money alike.
 */
describe('selling an open order early (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '0' });
  const { api } = e2e;
  const live = { timeout: 20_000 };

  let serial = 0;
  /** A signed-in trader: real money deposited the real way, or the practice balance. */
  const trader = async (mode: TradeMode): Promise<string> => {
    const account = `sell${serial++}_${process.pid % 10_000}_${Date.now() % 100_000}`;
    const token = await logInOverApi(e2e.app, await registerOverApi(e2e.app, account));
    if (mode === 'real')
      await fundByDeposit(e2e.app, token, { channel: 'bank', amount: 500_000 }, png);
    return token;
  };

  /** An English phone page of its own context, counting each time a result id joins the toast. */
  const phonePage = async (token: string) => {
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en',
      deviceScaleFactor: 1,
      hasTouch: true,
      // The offline cache would answer the open list the entry-wait check stands in for.
      serviceWorkers: 'block',
    });
    await context.addInitScript(
      `localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))});` +
        `localStorage.setItem('i18nLang', '"en"');`,
    );
    await context.addInitScript(countResultToasts);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { context, page, errors };
  };

  const balanceOf = async (token: string, mode: TradeMode): Promise<number> => {
    const summary = await api<AccountSummary>('/api/account/summary', {}, token);
    return mode === 'real' ? summary.available : summary.practice.available;
  };

  const sellButton = (page: Page, id: string) => page.getByTestId(`sell-${id}`);

  /** Places 10.00 up for 5 minutes from the docked ticket; returns the order's id. */
  const placeFiveMinutes = async (page: Page): Promise<string> => {
    await page.getByTestId('duration-300').click();
    await page.getByTestId('amount').fill('10');
    await page.getByTestId('buy-up').click();
    await page.getByTestId('confirm-ok').click();
    const item = page.locator('[data-testid^="position-item-"]');
    await item.first().waitFor(live);
    return (await item.first().getAttribute('data-testid'))!.replace('position-item-', '');
  };

  /** Distinct sell values seen on the button while the ticks come, at most `ms` long. */
  const valuesSeen = async (page: Page, id: string, ms = 15_000): Promise<Set<string>> => {
    const seen = new Set<string>();
    const until = Date.now() + ms;
    while (Date.now() < until && seen.size < 3) {
      const value = await sellButton(page, id).getAttribute('data-value');
      if (value) seen.add(value);
      await page.waitForTimeout(200);
    }
    return seen;
  };

  /**
   * Taps Sell until the order is sold: a tap sends the value shown with 1 % tolerance, and the
   * sale runs at the next tick, so near the money a fast market may refuse it
   * (SELL_PRICE_CHANGED, shown in place with the new value to sell at). `refuseFirst` makes the
   * first tap ask for far more than the value, so the server surely refuses it. Returns the
   * values tapped.
   */
  const sellIt = async (
    page: Page,
    token: string,
    id: string,
    refuseFirst: boolean,
  ): Promise<number[]> => {
    const tapped: number[] = [];
    // Each sale request is held a moment on its way, so the busy button can be seen.
    let requests = 0;
    await page.route(
      (url) => url.pathname === `/api/orders/${id}/sell`,
      async (route) => {
        requests += 1;
        await new Promise((resolve) => setTimeout(resolve, 800));
        if (!(refuseFirst && requests === 1)) return route.continue();
        const body = JSON.parse(route.request().postData() ?? '{}') as SellOrderBody;
        return route.continue({
          postData: JSON.stringify({ ...body, expected: body.expected + 100_000 }),
        });
      },
    );
    for (let attempt = 0; attempt < 8; attempt++) {
      const button = sellButton(page, id);
      await expect.poll(() => button.isEnabled(), live).toBe(true);
      tapped.push(Number(await button.getAttribute('data-value')));
      await button.click();
      // While the request runs the button shows progress and a second tap sends nothing.
      await expect.poll(() => button.getAttribute('aria-busy')).toBe('true');
      expect(await button.isDisabled()).toBe(true);
      expect(await button.innerText()).toBe('Selling…');
      await button.click({ force: true });
      await expect
        .poll(async () => {
          const order = await api<Order>(`/api/orders/${id}`, {}, token);
          if (order.status === 'sold') return 'sold';
          const error = page.getByTestId(`sell-error-${id}`);
          return (await error.count()) ? await error.getAttribute('data-code') : 'waiting';
        }, live)
        .not.toBe('waiting');
      expect(requests).toBe(tapped.length);
      if ((await api<Order>(`/api/orders/${id}`, {}, token)).status === 'sold') return tapped;
      const error = page.getByTestId(`sell-error-${id}`);
      expect(await error.getAttribute('data-code')).toBe('SELL_PRICE_CHANGED');
      // Refused: nothing was sold, the position is still there.
      expect((await api<Order>(`/api/orders/${id}`, {}, token)).status).toBe('open');
      expect(await page.getByTestId(`position-item-${id}`).count()).toBe(1);
      expect(await error.innerText()).toMatch(/sell value fell.*try again/i);
      await expect.poll(() => button.innerText()).toMatch(/^Sell at \d/);
    }
    throw new Error(`order ${id} was not sold in 8 taps`);
  };

  for (const mode of ['real', 'practice'] as const) {
    it(`sells a 5-minute ${mode} order at its live value`, async () => {
      const token = await trader(mode);
      const { context, page, errors } = await phonePage(token);
      await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
      await page
        .getByTestId('available-balance')
        .filter({ hasText: /^[1-9][\d,]*\.\d\d$/ })
        .waitFor(live);
      expect(await page.getByTestId('mode-practice').getAttribute('aria-pressed')).toBe(
        String(mode === 'practice'),
      );

      const id = await placeFiveMinutes(page);
      // Its entry comes, then the button sells at a value that follows the ticks.
      const button = sellButton(page, id);
      await expect.poll(() => button.getAttribute('data-blocked'), live).toBe('');
      expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      expect(await button.innerText()).toMatch(/^Sell \d+\.\d\d$/);
      expect((await valuesSeen(page, id)).size).toBeGreaterThan(1);

      const before = await balanceOf(token, mode);
      const tapped = await sellIt(page, token, id, mode === 'real');
      if (mode === 'real') expect(tapped.length).toBeGreaterThan(1);

      // The server: sold, paid its sale's value, close to what was tapped.
      const sold = await api<Order>(`/api/orders/${id}`, {}, token);
      expect(sold.status).toBe('sold');
      expect(sold.sale).not.toBeNull();
      expect(sold.payout).toBe(sold.sale!.value);
      expect(sold.pnl).toBe(sold.sale!.value - sold.amount);
      expect(sold.sale!.value).toBeGreaterThanOrEqual(
        tapped.at(-1)! - Math.max(1, Math.floor(tapped.at(-1)! / 100)),
      );
      expect(sold.exit).not.toBeNull();

      // The position closes; the toast says Sold and the value, once.
      await expect.poll(() => page.getByTestId(`position-item-${id}`).count(), live).toBe(0);
      const toast = page.getByTestId('result-toast');
      await expect.poll(() => toast.getAttribute('data-status'), live).toBe('sold');
      const value = (sold.sale!.value / 100).toFixed(2);
      expect(await toast.innerText()).toContain('Sold');
      expect(await toast.getByTestId('result-outcome').innerText()).toContain(`Sold for ${value}`);
      // The balance grows by the value (the UI and the server agree).
      await expect.poll(() => balanceOf(token, mode), live).toBe(before + sold.sale!.value);
      await expect
        .poll(() => page.getByTestId('available-balance').innerText(), live)
        .toBe(
          ((before + sold.sale!.value) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 }),
        );
      expect(await page.evaluate<Record<string, number>>('window.__toasted')).toEqual({ [id]: 1 });

      // A position waiting for its entry cannot be sold: shown as the open list brings it before
      // its entry tick is recorded.
      await page.route(
        (url) => url.pathname === '/api/orders' && url.searchParams.get('status') === 'open',
        async (route) => {
          const response = await route.fetch();
          const body = (await response.json()) as { items: Order[]; nextCursor: string | null };
          const waiting: Order = {
            ...sold,
            id: '999999999',
            status: 'open',
            entry: null,
            exit: null,
            payout: null,
            pnl: null,
            settledAt: null,
            sale: null,
            createdAt: Date.now(),
            expiresAt: Date.now() + 300_000,
          };
          return route.fulfill({ response, json: { ...body, items: [waiting, ...body.items] } });
        },
      );
      await page.reload();
      const waiting = sellButton(page, '999999999');
      await waiting.waitFor(live);
      expect(await waiting.isDisabled()).toBe(true);
      expect(await waiting.getAttribute('data-blocked')).toBe('entry');
      expect(await page.getByTestId('sell-reason-999999999').innerText()).toBe(
        'Can be sold after the entry tick',
      );

      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("sells from the Orders page's card too", async () => {
    const token = await trader('practice');
    const { context, page, errors } = await phonePage(token);
    const placed = await api<Order>(
      '/api/orders',
      {
        method: 'POST',
        body: JSON.stringify({
          productId: 'BTCUSDT',
          direction: 'down',
          amount: 1000,
          duration: 300,
          mode: 'practice',
        }),
      },
      token,
    );
    await page.goto(`${e2e.app.url}/#/pages/order/order?tab=positions`);
    const card = page.getByTestId(`order-${placed.id}`);
    await card.waitFor(live);
    const button = sellButton(page, placed.id);
    // The button is the card's own, not inside the link that opens the order's details.
    expect(await card.locator(`a [data-testid="sell-${placed.id}"]`).count()).toBe(0);
    for (let attempt = 0; attempt < 8; attempt++) {
      await expect.poll(() => button.isEnabled(), live).toBe(true);
      expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      await button.click();
      await expect
        .poll(async () => {
          if ((await api<Order>(`/api/orders/${placed.id}`, {}, token)).status === 'sold')
            return 'sold';
          const error = page.getByTestId(`sell-error-${placed.id}`);
          return (await error.count()) ? await error.getAttribute('data-code') : 'waiting';
        }, live)
        .not.toBe('waiting');
      if ((await api<Order>(`/api/orders/${placed.id}`, {}, token)).status === 'sold') break;
    }
    expect((await api<Order>(`/api/orders/${placed.id}`, {}, token)).status).toBe('sold');
    // The card leaves the open list (or shows its result), and the URL stayed on the list.
    await expect
      .poll(
        async () => (await button.count()) === 0 || (await card.getAttribute('data-status')),
        live,
      )
      .not.toBe('open');
    expect(new URL(page.url()).hash).toContain('/pages/order/order');
    expect(errors).toEqual([]);
    await context.close();
  });
});
