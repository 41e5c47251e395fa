import { describe, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Order } from '@shared/orders/model';
import type { Page as ListPage } from '@shared/wallet/model';
import { useAppAndBrowser } from '@tests/support/e2e';
import { logInOverApi, registerOverApi, type JourneyUser } from '@tests/support/journey';
import { countResultToasts } from '@tests/support/result-toasts';

/**
 * The trade loop as a trader lives it (issue 37, items 1 and 4): results never cover the buy
 * buttons, every result is shown, and one settled while the phone was offline is shown when it
 * comes back, on every device of the account, until one of them acknowledges it. 30 s orders
 * settle in real time, so the journeys run side by side (about a minute in all).
 */
describe.concurrent('results in the trade loop (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '0' });
  const { api } = e2e;

  let serial = 0;
  const trader = async (): Promise<{ user: JourneyUser; token: string }> => {
    const user = await registerOverApi(
      e2e.app,
      `loop${serial++}_${process.pid % 10_000}_${Date.now() % 100_000}`,
    );
    const token = await logInOverApi(e2e.app, user);
    // Practice money (the mode of a newcomer without real money): the journeys are about results,
    // and a practice result is shown the same way as a real one.
    await api('/api/practice/reset', { method: 'POST' }, token);
    return { user, token };
  };

  /**
   * A signed-in English page of its own context. Every result id that appears on the results
   * toast is counted, by the page's own MutationObserver, each time it appears.
   */
  const openPage = async (token: string, viewport: { width: number; height: number }) => {
    const context = await e2e.browser.newContext({
      viewport,
      locale: 'en',
      deviceScaleFactor: 1,
      hasTouch: true,
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

  const toasted = (page: Page) => page.evaluate<Record<string, number>>('window.__toasted');

  /** The ticket of BTCUSDT: 30 s, 10.00. */
  const openTicket = async (page: Page) => {
    await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
    // The practice balance is in (not 0.00) before the amount is typed: the ticket checks it as
    // typed.
    await page
      .getByTestId('available-balance')
      .filter({ hasText: /^[1-9][\d,]*\.\d\d$/ })
      .waitFor({ timeout: 20_000 });
    await page.getByTestId('duration-30').click();
    await page.getByTestId('amount').fill('10');
  };

  /** For each buy button, whether the element at its centre is the button (or inside it). */
  const buyButtonsOnTop = (page: Page) =>
    page.evaluate(() =>
      ['buy-up', 'buy-down'].map((id) => {
        const button = document.querySelector(`[data-testid="${id}"]`)!;
        const r = button.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { id, onTop: hit !== null && button.contains(hit) };
      }),
    );

  const openOrders = async (token: string) =>
    (await api<ListPage<Order>>('/api/orders?status=open&mode=practice', {}, token)).items;

  it.for([
    ['portrait', { width: 390, height: 844 }],
    ['landscape', { width: 844, height: 390 }],
  ] as const)(
    '%s: five 30 s trades, one tap each, the buy buttons never covered, every result shown',
    { timeout: 150_000 },
    async ([name, viewport], { expect }) => {
      const { token } = await trader();
      const { context, page, errors } = await openPage(token, viewport);
      // The confirmation off, in the settings, as a trader who trades fast turns it off.
      await page.goto(`${e2e.app.url}/#/pages/set/set`);
      const skip = page.getByTestId('skip-confirm');
      await skip.click();
      expect(await skip.isChecked()).toBe(true);
      await openTicket(page);

      const placed: string[] = [];
      for (let i = 0; i < 5; i++) {
        await page.getByTestId(i % 2 ? 'buy-down' : 'buy-up').click();
        // One tap placed it: no confirmation between the tap and the order.
        await expect.poll(async () => (await openOrders(token)).length).toBe(i + 1);
        expect(await page.getByTestId('confirm-ok').count()).toBe(0);
        const newest = (await openOrders(token))[0]!;
        placed.push(newest.id);
      }

      // As each settles: its result is shown, and both buy buttons are still on top.
      for (const id of [...placed].reverse()) {
        await expect.poll(async () => (await toasted(page))[id] ?? 0, { timeout: 60_000 }).toBe(1);
        expect(await buyButtonsOnTop(page)).toEqual([
          { id: 'buy-up', onTop: true },
          { id: 'buy-down', onTop: true },
        ]);
      }
      // The results list is one tap away, and lists all five.
      await page.getByTestId('results-button').click();
      await expect
        .poll(() => page.getByTestId('result-sheet').getAttribute('data-count'))
        .toBe('5');
      if (process.env.RESULT_SHOTS)
        await page.screenshot({ path: `${process.env.RESULT_SHOTS}/item-1-list-${name}.png` });
      // The phone's Back closes the list and keeps the trade screen.
      const tradeUrl = page.url();
      await page.goBack();
      await expect.poll(() => page.getByTestId('result-sheet').count()).toBe(0);
      expect(page.url()).toBe(tradeUrl);
      expect(await page.getByTestId('buy-up').isVisible()).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('a result settled while offline is shown once on return, on both devices, until acknowledged', async ({
    expect,
  }) => {
    const { user, token } = await trader();
    const a = await openPage(token, { width: 390, height: 844 });
    await a.page.addInitScript(`localStorage.setItem('skipOrderConfirm', 'true');`);
    await openTicket(a.page);
    await a.page.getByTestId('buy-up').click();
    await expect.poll(async () => (await openOrders(token)).length).toBe(1);
    const order = (await openOrders(token))[0]!;

    // Offline: the frozen price is greyed and says when its last tick was.
    await a.context.setOffline(true);
    await expect.poll(() => a.page.getByTestId('price').getAttribute('data-stale')).toBe('true');
    expect(await a.page.getByTestId('price-stale').innerText()).toMatch(
      /^Last price \d\d:\d\d:\d\d$/,
    );
    // Its expiry passes and the server settles it while the phone is away.
    await expect
      .poll(async () => (await api<Order>(`/api/orders/${order.id}`, {}, token)).status, {
        timeout: 60_000,
      })
      .not.toBe('open');
    expect((await toasted(a.page))[order.id]).toBeUndefined();

    // Back online: the result is shown, and the price is live again.
    await setOnline(a.context);
    await expect
      .poll(async () => (await toasted(a.page))[order.id] ?? 0, { timeout: 20_000 })
      .toBe(1);
    await expect.poll(() => a.page.getByTestId('price').getAttribute('data-stale')).toBe('false');

    // The same account on a second device sees it too (its own session).
    const b = await openPage(await logInOverApi(e2e.app, user), { width: 390, height: 844 });
    await openTicket(b.page);
    await expect
      .poll(async () => (await toasted(b.page))[order.id] ?? 0, { timeout: 20_000 })
      .toBe(1);
    expect(await a.page.getByTestId('results-button').getAttribute('data-unseen')).toBe('1');

    // Acknowledged on the second device by opening its results list (its toast hides by itself
    // after 5 s, which a loaded machine can spend before a tap on it): cleared on the first at
    // once, and on the server.
    await b.page.getByTestId('results-button').click();
    await expect
      .poll(() => a.page.getByTestId('results-button').getAttribute('data-unseen'))
      .toBe('0');
    expect(await a.page.getByTestId('result-toast').count()).toBe(0);
    const unseen = await api<{ items: Order[] }>('/api/orders/results/unseen', {}, token);
    expect(unseen.items).toEqual([]);
    // Shown once on each device, however many reconnections and replays there were.
    expect((await toasted(a.page))[order.id]).toBe(1);
    expect((await toasted(b.page))[order.id]).toBe(1);
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  }, 150_000);
});

/** Back online (Playwright fires the browser's `online` event). */
const setOnline = (context: BrowserContext) => context.setOffline(false);
