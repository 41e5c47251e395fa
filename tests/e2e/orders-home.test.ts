import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Order } from '@shared/orders/model';
import type { Product } from '@shared/product';
import type { AccountSummary } from '@shared/wallet/model';
import { useAppAndBrowser } from '@tests/support/e2e';
import {
  fundByDeposit,
  logInOverApi,
  registerOverApi,
  onePixelPng as png,
} from '@tests/support/journey';
import { axeViolations } from '@tests/support/page-checks';

/** A 1×1 PNG, for the deposit's transfer screenshot. */

/**
 * The trading screen (Home, Orders, product list) in English on a phone: a funded trader with one
 * open and one closed order sees "Open real trades (1)" and the account summary's figures on
 * Home, an Orders tab in the tab bar whose Open tab leads with the live P&L and a shrinking bar,
 * and whose Closed tab leads with the final P&L; a guest sees Sign up and Log in; the product
 * list filters by category and sorts by change.
 */
describe('orders and home (Chromium, embedded app, English)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '0' });

  const { api } = e2e;

  /** Places a real "up" order on BTCUSDT, retried while the simulator's first ticks arrive. */
  const place = async (token: string, amount: number, duration: number): Promise<Order> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        return await api<Order>(
          '/api/orders',
          {
            method: 'POST',
            body: JSON.stringify({ productId: 'BTCUSDT', direction: 'up', amount, duration }),
          },
          token,
        );
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };

  const en = (minor: number) =>
    new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
      Math.abs(minor) / 100,
    );
  const signed = (minor: number) => (minor > 0 ? '+' : minor < 0 ? '-' : '') + en(minor);
  const live = { timeout: 15_000 };

  const open = async (page: Page, route: string) => page.goto(`${e2e.app.url}/#${route}`);

  /** An English phone page collecting console errors; CSP bypassed so axe-core can be injected. */
  const phone = async () => {
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en',
      deviceScaleFactor: 1,
      hasTouch: true,
      bypassCSP: true,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    return { context, page, errors };
  };

  it('shows a trader the open-trades pill, the balance card, and the orders led by P&L', async () => {
    const token = await logInOverApi(
      e2e.app,
      await registerOverApi(e2e.app, `oh_${process.pid % 10_000}_${Date.now() % 100_000}`),
    );
    await fundByDeposit(e2e.app, token, { channel: 'bank', amount: 500_000 }, png);
    const closing = await place(token, 10_000, 30);
    const opened = await place(token, 20_000, 300);
    // The 30 s order settles by itself; the 300 s one stays open for the rest of the test.
    let closed = closing;
    await expect
      .poll(
        async () => (closed = await api<Order>(`/api/orders/${closing.id}`, {}, token)).status,
        {
          timeout: 60_000,
          interval: 1_000,
        },
      )
      .not.toBe('open');

    const { context, page, errors } = await phone();
    await context.addInitScript(
      `localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))})`,
    );
    await open(page, '/pages/index/index');

    // Home: the pill counts the one open order; the card shows the account summary's figures.
    const pill = page.getByTestId('open-trades-pill');
    await expect.poll(() => pill.innerText(), live).toBe('Open real trades (1)');
    const summary = await api<AccountSummary>('/api/account/summary', {}, token);
    expect(summary.inOrders).toBe(20_000);
    for (const [testId, minor] of [
      ['balance-available', summary.available],
      ['balance-in-trades', summary.inOrders],
      ['balance-savings', summary.savings],
    ] as const) {
      await expect
        .poll(() => page.getByTestId(testId).getAttribute('data-minor'), live)
        .toBe(String(minor));
      expect(await page.getByTestId(testId).innerText()).toBe(en(minor));
    }
    expect(await page.getByTestId('home-deposit').innerText()).toBe('Deposit');
    expect(await page.getByTestId('home-withdraw').innerText()).toBe('Withdraw');
    expect(await page.getByTestId('banner').count()).toBe(0);
    expect(await page.getByTestId('home-log-in').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // Five tabs fit a 360 px phone, Orders among them, none cut off.
    await page.setViewportSize({ width: 360, height: 740 });
    const tabs = page.locator('.tab-bar a');
    expect(await tabs.allInnerTexts()).toEqual(['Home', 'Products', 'Orders', 'Savings', 'Me']);
    const boxes = await tabs.evaluateAll((links) =>
      links.map((l) => {
        const r = l.getBoundingClientRect();
        return {
          left: r.left,
          right: r.right,
          height: r.height,
          clipped: l.scrollWidth > l.clientWidth,
        };
      }),
    );
    for (const b of boxes) {
      expect(b.left).toBeGreaterThanOrEqual(0);
      expect(b.right).toBeLessThanOrEqual(360.5);
      expect(b.height).toBeGreaterThanOrEqual(44);
      expect(b.clipped).toBe(false);
    }

    // The pill opens the Orders page on its Open tab.
    await pill.click();
    await page.waitForURL(/#\/pages\/order\/order\?tab=positions$/);
    expect(await page.getByTestId('tab-positions').getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('tab-positions').innerText()).toBe('Open');
    expect(await page.locator('.tab-bar a[aria-current="page"]').innerText()).toBe('Orders');
    const card = page.getByTestId(`order-${opened.id}`);
    await card.waitFor();
    expect(await page.getByTestId(`order-${closed.id}`).count()).toBe(0);
    expect(await page.getByTestId(`order-number-${opened.id}`).innerText()).toBe(
      `#${opened.id.padStart(6, '0')}`,
    );
    // The headline is a signed P&L for the price now: +profit, 0.00 or −amount.
    const headline = page.getByTestId(`headline-${opened.id}`);
    await expect.poll(() => headline.getAttribute('data-pnl'), live).toMatch(/^-?\d+$/);
    const pnl = Number(await headline.getAttribute('data-pnl'));
    expect(pnl === -20_000 || pnl === 0 || (pnl > 0 && pnl < 20_000)).toBe(true);
    expect(await headline.innerText()).toBe(signed(pnl));
    expect(await card.innerText()).toContain('if it ended now');
    // The bar shrinks with the server clock.
    const bar = page.getByTestId(`time-bar-${opened.id}`);
    const share = async () => Number(await bar.getAttribute('data-share'));
    const first = await share();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(1);
    await expect.poll(share, live).toBeLessThan(first);
    // One time on the card, not two.
    expect((await card.innerText()).match(/Placed|Settled/g)).toEqual(['Placed']);
    expect(await axeViolations(page)).toEqual([]);

    // The Closed tab leads with the final P&L.
    await page.getByTestId('tab-history').click();
    await page.getByTestId(`order-${closed.id}`).waitFor();
    expect(await page.getByTestId(`order-${opened.id}`).count()).toBe(0);
    expect(await page.getByTestId(`headline-${closed.id}`).innerText()).toBe(signed(closed.pnl!));
    expect(await page.getByTestId(`order-${closed.id}`).innerText()).toContain('Final P&L');

    // The old "every order" link opens the Open tab.
    await open(page, '/pages/order/order?tab=records');
    await expect
      .poll(() => page.getByTestId('tab-positions').getAttribute('aria-selected'), live)
      .toBe('true');
    await card.waitFor();

    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('shows a guest Sign up and Log in in the header of Home', async () => {
    const { context, page, errors } = await phone();
    await open(page, '/pages/index/index');
    const signUp = page.getByTestId('home-sign-up');
    await signUp.waitFor();
    expect(await signUp.innerText()).toBe('Sign up');
    expect(await page.locator('.page-header').getByTestId('home-log-in').innerText()).toBe(
      'Log in',
    );
    expect(await page.getByTestId('balance-card').count()).toBe(0);
    expect(await page.getByTestId('open-trades-pill').count()).toBe(0);
    await page.getByTestId('banner').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('home-log-in').click();
    await page.waitForURL(/#\/pages\/login\/login/);

    // In every language both fit a 360 px header beside the title; the language switch is below.
    await page.setViewportSize({ width: 360, height: 740 });
    for (const lang of ['zh-CN', 'zh-TW', 'en', 'ja', 'ko', 'th', 'vi', 'id', 'fr', 'de']) {
      await page.evaluate(`localStorage.setItem('i18nLang', '${lang}')`);
      await open(page, '/pages/index/index');
      await page.reload();
      await page.getByTestId('home-sign-up').waitFor();
      expect(
        await page.locator('.home-intro [data-testid=language-button]').getAttribute('data-value'),
      ).toBe(lang);
      const header = await page.locator('.page-header').evaluate((h) => ({
        overflow: h.scrollWidth > h.clientWidth,
        boxes: [...h.querySelectorAll('a, button')].map((el) => {
          const r = el.getBoundingClientRect();
          return { right: r.right, height: r.height, cut: el.scrollWidth > el.clientWidth + 1 };
        }),
      }));
      expect(header.overflow, lang).toBe(false);
      for (const b of header.boxes) {
        expect(b.right, lang).toBeLessThanOrEqual(360.5);
        expect(b.height, lang).toBeGreaterThanOrEqual(44);
      }
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('filters the product list by category, sorts it by change, and shows the best rate', async () => {
    const products = await api<Product[]>('/api/market/products');
    const forex = products.filter((p) => p.category === 'forex').map((p) => p.id);
    expect(forex.length).toBeGreaterThan(0);
    expect(forex.length).toBeLessThan(products.length);

    const { context, page, errors } = await phone();
    await open(page, '/pages/product/product');
    const rows = page.locator('[data-testid^="product-row-"]');
    const ids = () =>
      rows.evaluateAll((links) =>
        links.map((l) => l.getAttribute('data-testid')!.replace('product-row-', '')),
      );
    await expect.poll(() => rows.count(), live).toBe(products.length);

    // Each row offers its best rate over the durations.
    const btc = products.find((p) => p.id === 'BTCUSDT')!;
    const best = Math.max(...btc.durations.map((d) => Number(d.rate)));
    expect(await page.getByTestId('product-row-BTCUSDT').getByTestId('best-rate').innerText()).toBe(
      `Up to ${Math.round(best * 100)}%`,
    );

    await page.getByTestId('category-forex').click();
    expect(await page.getByTestId('category-forex').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => (await ids()).sort(), live).toEqual([...forex].sort());

    // Sort by change: the rows as drawn in one pass, highest change first.
    await page.getByTestId('category-all').click();
    await expect.poll(() => rows.count(), live).toBe(products.length);
    await page.getByTestId('sort').click();
    await page.getByTestId('sort-change').click();
    const changes = () =>
      rows.evaluateAll((links) => links.map((l) => Number(l.getAttribute('data-change-pct'))));
    await expect
      .poll(async () => {
        const seen = await changes();
        return seen.every((c, i) => i === 0 || seen[i - 1]! >= c);
      }, live)
      .toBe(true);
    const seen = await changes();
    expect(new Set(seen).size).toBeGreaterThan(1); // a real order, not all the same figure
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
