import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ChartDrawing } from '@shared/drawings/model';
import type { Order } from '@shared/orders/model';
import type { Product } from '@shared/product';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { fundedTrader, placeLongPosition } from '@tests/support/journey';
import { countResultToasts } from '@tests/support/result-toasts';

/**
 * The trade screen in one piece, as a trader watching three markets uses it on a phone: positions
 * open on two of them, one tap on the quick switcher per market, a horizontal line drawn on the
 * chart (kept on the server), the phone turned on its side with the chart full screen, then back
 * to the ticket to sell one position early, and its result shown once.
 */
describe("a trader's session on the trade screen (Chromium, embedded app)", () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });
  const live = { timeout: 20_000 };

  const drawn = (page: Page) =>
    expect
      .poll(() => page.getByTestId('chart').getAttribute('data-bars').then(Number), live)
      .toBeGreaterThan(0);

  it('switches three markets, draws a line, turns the phone, sells a position and sees its result', async () => {
    const token = await fundedTrader(e2e.app, 'journey');
    const all = await e2e.api<Product[]>('/api/market/products');
    const [a, b, c] = all.filter((p) => p.status === 'open' && p.durations.length > 0);
    expect(c, 'three trading products').toBeDefined();
    if (!a || !b || !c) return;
    const onA = await placeLongPosition(e2e.app, token, a);
    await placeLongPosition(e2e.app, token, b);

    const { context, page, errors } = await phonePage(e2e.browser, {
      locale: 'en',
      token,
      // A sale refused near the money (409 SELL_PRICE_CHANGED) is part of the journey.
      consoleErrors: false,
    });
    await context.addInitScript(countResultToasts);
    for (const product of [a, b, c]) {
      await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=${product.id}`);
      await page.getByTestId('buy-up').waitFor(live);
      await drawn(page);
    }

    // One tap per market on the switcher; the two with positions say so.
    const chip = (p: Product) => page.getByTestId(`switch-${p.id}`);
    await expect.poll(() => page.getByTestId(`switch-open-${a.id}`).innerText(), live).toBe('1');
    await expect.poll(() => page.getByTestId(`switch-open-${b.id}`).innerText(), live).toBe('1');
    for (const target of [b, c, a]) {
      await chip(target).tap();
      await page.waitForURL(new RegExp(`id=${target.id}$`), live);
      await drawn(page);
      const positions = target === c ? 0 : 1;
      await expect
        .poll(
          async () =>
            Number(
              (await page.getByTestId('positions-strip').count()) &&
                (await page.getByTestId('positions-strip').getAttribute('data-count')),
            ),
          live,
        )
        .toBe(positions);
    }

    // A horizontal line on a's chart by one tap, kept on the server.
    await page.getByTestId('drawing-tool-hline').tap();
    const box = (await page.getByTestId('chart').boundingBox())!;
    await page
      .getByTestId('drawing-capture')
      .tap({ position: { x: Math.round(box.width / 2), y: Math.round(box.height / 3) } });
    const stored = () =>
      e2e
        .api<{ items: ChartDrawing[] }>(`/api/drawings?product=${a.id}`, {}, token)
        .then((r) => r.items);
    await expect.poll(() => stored().then((d) => d.length), live).toBe(1);
    const [line] = await stored();
    await expect
      .poll(() => page.getByTestId('chart').getAttribute('data-drawing-lines'), live)
      .toBe(line!.points[0]!.price);

    // On its side, the chart full screen: it fills most of the screen, the line still on it.
    await page.setViewportSize({ width: 844, height: 390 });
    await page.getByTestId('chart-fullscreen').click();
    await expect
      .poll(async () => (await page.getByTestId('chart').boundingBox())?.width ?? 0, live)
      .toBeGreaterThanOrEqual(844 * 0.9);
    expect(await page.getByTestId('chart').getAttribute('data-drawing-lines')).toBe(
      line!.points[0]!.price,
    );
    await page.getByTestId('chart-fullscreen-exit').click();

    // Sell a's position from the strip; near the money a fast tick may refuse a tap
    // (SELL_PRICE_CHANGED), and the button then offers the new value.
    const sell = page.getByTestId(`sell-${onA.id}`);
    for (let attempt = 0; attempt < 8; attempt++) {
      await expect.poll(() => sell.isEnabled(), live).toBe(true);
      await sell.click();
      await expect
        .poll(async () => {
          if ((await e2e.api<Order>(`/api/orders/${onA.id}`, {}, token)).status === 'sold')
            return 'sold';
          const error = page.getByTestId(`sell-error-${onA.id}`);
          return (await error.count()) ? await error.getAttribute('data-code') : 'waiting';
        }, live)
        .not.toBe('waiting');
      if ((await e2e.api<Order>(`/api/orders/${onA.id}`, {}, token)).status === 'sold') break;
    }
    const sold = await e2e.api<Order>(`/api/orders/${onA.id}`, {}, token);
    expect(sold.status).toBe('sold');
    // The result: the toast says Sold with the value, once; the position left the strip.
    const toast = page.getByTestId('result-toast');
    await expect.poll(() => toast.getAttribute('data-status'), live).toBe('sold');
    expect(await toast.getByTestId('result-outcome').innerText()).toContain(
      `Sold for ${(sold.sale!.value / 100).toFixed(2)}`,
    );
    await expect.poll(() => page.getByTestId(`position-item-${onA.id}`).count(), live).toBe(0);
    expect(await page.evaluate<Record<string, number>>('window.__toasted')).toEqual({
      [onA.id]: 1,
    });
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
