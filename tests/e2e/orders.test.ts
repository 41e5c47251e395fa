import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Order } from '@shared/orders/model';
import type { Product } from '@shared/product';
import type { AccountSummary } from '@shared/wallet/model';
import { useAppAndBrowser } from '@tests/support/e2e';
import {
  fundByDeposit,
  logInOverApi,
  registerOverApi,
  runOps,
  onePixelPng as png,
} from '@tests/support/journey';

/** A 1×1 PNG, for the deposit's transfer screenshot. */

interface TapeTick {
  seq: number;
  ts: number;
  price: string;
}

/**
 * Issue 6 journey: a funded user buys up for 30 s on the detail page, watches the countdown on
 * the position list, sees the order settle within 3 s of expiry with the entry and exit ticks of
 * the public tape, and sees balance and P&L change live, all without a reload.
 */
describe('timed orders (Chromium, embedded app)', () => {
  // No backfill: these journeys need live ticks only, and a quick start leaves the CPU to the
  // browser journeys running beside them.
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '0' });

  const { api } = e2e;

  /** Registers with the invitation code WELCOME and logs in; returns the session token. */
  const newUser = async (): Promise<string> =>
    logInOverApi(
      e2e.app,
      await registerOverApi(e2e.app, `ord_${process.pid % 10_000}_${Date.now() % 100_000}`),
    );

  /** Funds the user the real way: a bank deposit with a screenshot, approved by the operator CLI. */
  const fund = async (token: string, amount: number): Promise<void> => {
    await fundByDeposit(e2e.app, token, { channel: 'bank', amount }, png);
  };

  /** A phone page whose storage already holds the session (as after a login). */
  const signedInPage = async (
    context: BrowserContext,
    errors: string[],
    route: string,
  ): Promise<Page> => {
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${m.text()} @ ${m.location().url}`);
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${e2e.app.url}/#${route}`);
    // Set once here: a reload would lose it, so it proves the page was never reloaded.
    await page.evaluate('window.__sameDocument = true');
    return page;
  };
  const sameDocument = (page: Page) => page.evaluate<boolean>('window.__sameDocument === true');
  const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
  /** How long a live update may take on a busy machine. */
  const live = { timeout: 10_000 };
  const zh = (value: string, decimals: number) =>
    new Intl.NumberFormat('zh-CN', {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(value as Intl.StringNumericLiteral);
  const money = (minor: number) => zh((minor / 100).toFixed(2), 2);
  const signedMoney = (minor: number) =>
    (minor > 0 ? '+' : minor < 0 ? '-' : '') + money(Math.abs(minor));
  const priceText = (price: string) => zh(price, price.split('.')[1]?.length ?? 0);
  const seconds = (countdown: string) => {
    const [m, s] = countdown.split(':').map(Number);
    return (m ?? 0) * 60 + (s ?? 0);
  };

  it('buys up for 30 s, counts down, settles at the tape price within 3 s, and updates balance and P&L live', async () => {
    const token = await newUser();
    await fund(token, 500_000); // 5 000.00
    const product = await api<Product>('/api/market/products/BTCUSDT');
    const rung = product.durations.find((d) => d.seconds === 30);
    expect(rung).toBeDefined();
    const rateBp = Math.round(Number(rung!.rate) * 10_000);
    const stake = 100_000;
    const winPays = stake + Math.floor((stake * rateBp) / 10_000);

    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'zh-CN',
      deviceScaleFactor: 1,
      hasTouch: true,
    });
    await context.addInitScript(
      `localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))})`,
    );
    const errors: string[] = [];

    // The position list is open in one tab, the ticket in another: both must follow live.
    const positions = await signedInPage(context, errors, '/pages/order/order?tab=positions');
    await positions.getByTestId('tab-positions').waitFor();
    expect(await positions.getByTestId('tab-positions').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => text(positions, 'pnl-total'), live).toBe('0.00');
    expect(await text(positions, 'pnl-today')).toBe('0.00');
    // No orders at all: "no orders yet" (once the Closed list is known to be empty too).
    await positions.getByText('还没有订单').waitFor();

    const detail = await signedInPage(context, errors, '/pages/Detail/Detail?id=BTCUSDT');
    await expect
      .poll(() => text(detail, 'available-balance'), { timeout: 15_000 })
      .toBe('5,000.00');

    // The rules open in a sheet (the rules page may not exist yet: then a friendly message).
    await detail.getByTestId('rules-link').click();
    await detail
      .locator('[data-testid="rules-body"], [data-testid="rules-unavailable"]')
      .first()
      .waitFor();
    await detail.getByTestId('rules-close').click();
    await detail.getByTestId('rules-sheet').waitFor({ state: 'detached' });

    // Durations with their rates; "place all" is the balance within the max stake.
    await detail.getByTestId('duration-30').click();
    expect(await detail.getByTestId('duration-30').getAttribute('aria-pressed')).toBe('true');
    expect(await text(detail, 'duration-30')).toContain(`${Math.round(rateBp / 100)}%`);
    await detail.getByTestId('place-all').click();
    expect(await detail.getByTestId('amount').inputValue()).toBe('5000.00');
    // Letters dropped, the rest kept as typed and checked as typed (issue 37): three decimals,
    // then below the minimum stake; the buy buttons wait meanwhile.
    await detail.getByTestId('amount').fill('5a.129');
    expect(await detail.getByTestId('amount').inputValue()).toBe('5.129');
    expect(await text(detail, 'amount-problem')).toBe('最多 2 位小数');
    await detail.getByTestId('amount').fill('5.12');
    expect(await text(detail, 'amount-problem')).toBe(`最低 ${money(product.minStake)}`);
    expect(await detail.getByTestId('buy-up').isDisabled()).toBe(true);
    expect(await text(detail, 'estimate-profit')).toBe('--');
    await detail.getByTestId('amount').fill('1000');
    expect(await text(detail, 'estimate-profit')).toBe(money(winPays - stake));
    expect(await text(detail, 'estimate-payout')).toBe(money(winPays));

    // Confirm: direction, amount, duration and rate are shown before anything is sent.
    await detail.getByTestId('buy-up').click();
    expect(await text(detail, 'confirm-direction')).toContain('买涨');
    expect(await text(detail, 'confirm-amount')).toBe('1,000.00');
    expect(await text(detail, 'confirm-duration')).toBe('30秒');
    expect(await text(detail, 'confirm-rate')).toBe(`${Math.round(rateBp / 100)}%`);
    await detail.getByTestId('confirm-ok').click();
    await detail.getByTestId('toast').filter({ hasText: '购买成功' }).waitFor();
    await expect.poll(() => text(detail, 'available-balance'), live).toBe('4,000.00');

    // The new order appears live in the other tab, with a countdown that runs.
    const card = positions.locator('li[data-testid^="order-"]');
    await card.first().waitFor({ timeout: 10_000 });
    expect(await card.count()).toBe(1);
    const id = (await card.first().getAttribute('data-testid'))!.replace('order-', '');
    const accepted = await api<Order>(`/api/orders/${id}`, {}, token);
    expect(accepted).toMatchObject({
      status: 'open',
      direction: 'up',
      amount: stake,
      duration: 30,
    });
    expect(accepted.expiresAt - accepted.createdAt).toBe(30_000);
    expect(await positions.getByTestId(`order-status-${id}`).getAttribute('data-status')).toBe(
      'open',
    );
    // The entry is the first tick recorded after acceptance: the worker fills it in, and the card
    // follows its `order` event without a reload.
    let placed = accepted;
    await expect
      .poll(async () => (placed = await api<Order>(`/api/orders/${id}`, {}, token)).entry, live)
      .not.toBeNull();
    const entryTick = placed.entry!;
    const entry = positions.getByTestId(`entry-price-${id}`);
    await expect.poll(() => entry.getAttribute('data-seq'), live).toBe(String(entryTick.seq));
    expect(await entry.innerText()).toBe(priceText(entryTick.price));
    const around = await api<TapeTick[]>(
      `/api/market/ticks?product=BTCUSDT&from=${placed.createdAt - 5_000}&to=${placed.createdAt + 5_000}&limit=1000`,
    );
    expect(
      around.filter((t) => t.ts > placed.createdAt).sort((a, b) => a.ts - b.ts || a.seq - b.seq)[0],
    ).toMatchObject(entryTick); // the tape also carries the tick's quantity
    expect(entryTick.ts).toBeLessThanOrEqual(placed.createdAt + 3_000);
    const first = seconds(await text(positions, `countdown-${id}`));
    expect(first).toBeGreaterThan(20);
    expect(first).toBeLessThanOrEqual(30);
    await expect
      .poll(async () => seconds(await text(positions, `countdown-${id}`)), { timeout: 5_000 })
      .toBeLessThanOrEqual(first - 2);
    await positions.getByTestId(`pay-now-${id}`).filter({ hasText: /\d/ }).waitFor();
    // The card leads with what the order would make if it ended now.
    await positions.getByTestId(`headline-${id}`).filter({ hasText: /\d/ }).waitFor();

    // Settlement: the card leaves the position list within 3 s of expiry, by itself.
    await card.first().waitFor({
      state: 'detached',
      timeout: placed.expiresAt - Date.now() + 10_000,
    });
    const seenAt = Date.now();
    const settled = await api<Order>(`/api/orders/${id}`, {}, token);
    console.log(
      `order ${id}: ${settled.status}, settled ${settled.settledAt! - placed.expiresAt} ms after expiry, ` +
        `off the position list ${seenAt - placed.expiresAt} ms after expiry`,
    );
    expect(['won', 'lost', 'draw']).toContain(settled.status);
    expect(settled.settledAt! - placed.expiresAt).toBeLessThanOrEqual(3_000);
    expect(seenAt - placed.expiresAt).toBeLessThanOrEqual(3_000);
    // Nothing open, but a closed order: not "no orders yet", and the way to the Closed tab.
    await positions.getByText('暂无持仓中的交易').waitFor();
    await expect.poll(() => text(positions, 'empty-action'), live).toBe('查看已平仓交易');
    expect(await positions.getByText('还没有订单').count()).toBe(0);

    // Entry and exit are ticks of the public tape: the entry the seq the order names, the exit
    // the last tick at or before expiry (never before the entry).
    const tape = await api<TapeTick[]>(
      `/api/market/ticks?product=BTCUSDT&from=${entryTick.ts}&to=${placed.expiresAt}&limit=1000`,
    );
    // (The tape's ticks also carry their quantity, which the order does not.)
    expect(tape.find((t) => t.seq === entryTick.seq)).toMatchObject(entryTick);
    const exitTick = tape.filter((t) => t.ts <= placed.expiresAt).at(-1);
    expect(settled.exit).not.toBeNull();
    expect(exitTick).toMatchObject(settled.exit!);

    // The closed-position record shows both ticks, the result, P&L and payout.
    await positions.getByTestId('tab-history').click();
    await positions.getByTestId(`order-${id}`).waitFor();
    expect(await positions.getByTestId(`order-status-${id}`).getAttribute('data-status')).toBe(
      settled.status,
    );
    const exit = positions.getByTestId(`exit-price-${id}`);
    expect(await exit.getAttribute('data-seq')).toBe(String(exitTick!.seq));
    expect(await exit.getAttribute('data-price')).toBe(exitTick!.price);
    expect(await exit.innerText()).toBe(priceText(exitTick!.price));
    expect(await positions.getByTestId(`entry-price-${id}`).getAttribute('data-seq')).toBe(
      String(entryTick.seq),
    );
    // The card leads with the final P&L.
    expect(await text(positions, `headline-${id}`)).toBe(signedMoney(settled.pnl!));
    expect(await text(positions, `payout-${id}`)).toBe(money(settled.payout!));
    await positions.getByTestId('no-more').waitFor();

    // Balance and P&L followed without a reload, in both tabs.
    const summary = await api<AccountSummary>('/api/account/summary', {}, token);
    expect(summary.available).toBe(400_000 + settled.payout!);
    expect(summary.pnlTotal).toBe(settled.pnl);
    await expect.poll(() => text(detail, 'available-balance'), live).toBe(money(summary.available));
    expect((await text(positions, 'pnl-total')).replace(/[▲▼\s]/g, '')).toBe(
      signedMoney(settled.pnl!),
    );
    expect((await text(positions, 'pnl-today')).replace(/[▲▼\s]/g, '')).toBe(
      signedMoney(settled.pnl!),
    );
    expect(await sameDocument(detail)).toBe(true);
    expect(await sameDocument(positions)).toBe(true);

    // "View positions" leads to the Open tab, now empty; the Closed tab holds the order.
    await detail.getByTestId('view-positions').click();
    await detail.waitForURL(/#\/pages\/order\/order\?tab=positions$/);
    await detail.getByText('暂无持仓中的交易').waitFor();
    await expect.poll(() => text(detail, 'empty-action'), live).toBe('查看已平仓交易');
    await detail.getByTestId('empty-action').click();
    await detail.waitForURL(/#\/pages\/order\/order\?tab=history$/);
    expect(await detail.getByTestId('tab-history').getAttribute('aria-selected')).toBe('true');
    await detail.getByTestId(`order-${id}`).waitFor();

    // A rules page that is not there yet is a 404 the sheet explains; nothing else may fail.
    expect(errors.filter((e) => !/status of 404 .*\/api\/pages\/rules/.test(e))).toEqual([]);
    await context.close();
  }, 150_000);

  it('retries a purchase whose answer was lost with the same Idempotency-Key: one order', async () => {
    const token = await newUser();
    await fund(token, 100_000); // 1 000.00
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'zh-CN',
    });
    await context.addInitScript(
      `localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))})`,
    );
    const errors: string[] = [];
    const page = await signedInPage(context, errors, '/pages/Detail/Detail?id=BTCUSDT');
    await expect.poll(() => text(page, 'available-balance'), { timeout: 15_000 }).toBe('1,000.00');

    // The first POST reaches the server, but its answer is lost on the way back.
    const keys: string[] = [];
    await page.route('**/api/orders', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push((await route.request().headerValue('idempotency-key')) ?? '');
      if (keys.length === 1) {
        await route.fetch();
        return route.abort('failed');
      }
      return route.continue();
    });
    await page.getByTestId('duration-60').click();
    await page.getByTestId('amount').fill('100');
    await page.getByTestId('buy-down').click();
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('confirm-problem').waitFor();
    expect(await text(page, 'confirm-problem')).toContain('不会重复购买');
    expect(await text(page, 'confirm-ok')).toBe('重试');
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('toast').filter({ hasText: '购买成功' }).waitFor();

    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    const orders = await api<{ items: Order[] }>('/api/orders', {}, token);
    expect(orders.items).toHaveLength(1);
    expect(orders.items[0]).toMatchObject({ direction: 'down', amount: 10_000, duration: 60 });
    await expect.poll(() => text(page, 'available-balance'), live).toBe('900.00');

    // A new confirmation is a new attempt, with a new key.
    await page.getByTestId('buy-down').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => keys.length, live).toBe(3);
    expect(keys[2]).not.toBe(keys[0]);
    await expect.poll(() => text(page, 'available-balance'), live).toBe('800.00');
    // Only the deliberately lost answer may show as a failed request.
    expect(errors.filter((e) => !/net::ERR_FAILED .*\/api\/orders/.test(e))).toEqual([]);
    await context.close();
  }, 90_000);

  it('shows maintenance live when an operator stops a product: notice with the opening time, no buying, then trading again', async () => {
    const token = await newUser();
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en',
    });
    await context.addInitScript(
      `localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))})`,
    );
    const errors: string[] = [];
    const page = await signedInPage(context, errors, '/pages/Detail/Detail?id=ETHUSDT');
    const buyUp = page.getByTestId('buy-up');
    await buyUp.waitFor();
    expect(await buyUp.isEnabled()).toBe(true);
    expect(await page.getByTestId('market-notice').count()).toBe(0);

    const ops = (...args: string[]) =>
      runOps(e2e.app, 'products', 'maintenance', 'ETHUSDT', ...args);
    const opensAt = new Date(Date.now() + 2 * 3_600_000);
    opensAt.setSeconds(0, 0);
    await ops('on', '--opens-at', opensAt.toISOString());
    const notice = page.getByTestId('market-notice');
    await notice.waitFor(live);
    // The opening time as this page formats it (its zone and language).
    const when = await page.evaluate(
      (ms) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(ms),
      opensAt.getTime(),
    );
    expect(await notice.innerText()).toBe(`Under maintenance — opens at ${when}`);
    await expect.poll(() => buyUp.isDisabled(), live).toBe(true);
    expect(await page.getByTestId('buy-down').isDisabled()).toBe(true);
    expect(await buyUp.getAttribute('aria-describedby')).toBe('market-notice');

    await ops('off');
    await notice.waitFor({ state: 'detached', ...live });
    expect(await buyUp.isEnabled()).toBe(true);
    expect(await sameDocument(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks visitors to log in instead of showing the ticket', async () => {
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en',
    });
    const page = await context.newPage();
    await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
    await page.getByTestId('ticket-login').waitFor();
    expect(await page.getByTestId('buy-up').count()).toBe(0);
    await page.getByTestId('ticket-login').getByRole('link').click();
    await page.waitForURL(
      /#\/pages\/login\/login\?redirect=%2Fpages%2FDetail%2FDetail%3Fid%3DBTCUSDT$/,
    );
    await context.close();
  });
});
