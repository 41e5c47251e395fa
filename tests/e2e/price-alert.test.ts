import { describe, expect, it } from 'vitest';
import type { PriceAlerts } from '@shared/alerts/model';
import type { Message } from '@shared/content/model';
import { useAppAndBrowser } from '@tests/support/e2e';
import { logInOverApi, registerOverApi } from '@tests/support/journey';

/**
 * A price alert as a trader sets it (DECISIONS, Price alerts): on the BTCUSDT trade screen of a
 * phone, the bell opens the alerts with the live price filled in; alerts a cent above and below it
 * are set, and one is fired by the server at the first tick that reaches it: a notice on the page,
 * the alert gone from the active list, and a message in the message list naming the tick.
 */
describe('a price alert, set on the trade screen, fires (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '0' });
  const live = { timeout: 30_000 };

  it('sets the alert near the live price, shows the notice when it fires, and the message', async () => {
    const account = `alert${process.pid % 10_000}_${Date.now() % 100_000}`;
    const token = await logInOverApi(e2e.app, await registerOverApi(e2e.app, account));
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
    // Every text the toast shows, kept: the notice may replace the "Alert set" toast quickly.
    await context.addInitScript(`
      window.__toasts = [];
      new MutationObserver(() => {
        const el = document.querySelector('[data-testid="toast"]');
        if (el && window.__toasts[window.__toasts.length - 1] !== el.textContent)
          window.__toasts.push(el.textContent);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    `);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
      const bell = page.getByTestId('price-alerts-button');
      await bell.waitFor(live);
      const box = await bell.boundingBox();
      expect(box!.width).toBeGreaterThanOrEqual(44);
      expect(box!.height).toBeGreaterThanOrEqual(44);

      // Two alerts a cent either side of the live price: the next tick, up or down by dollars,
      // fires one of them. Should the price have passed one before it was set
      // (ALERT_ALREADY_MET), the next try sets it from the new price.
      const count = async () => {
        const mine = await e2e.api<PriceAlerts>('/api/alerts?product=BTCUSDT', {}, token);
        return mine.active.length + mine.fired.length;
      };
      for (const [n, direction] of (['above', 'below'] as const).entries()) {
        let set = false;
        const tried: string[] = [];
        // Each try is a coin toss against the next tick (about even odds that it passes the
        // cent first), so twelve tries fail together about once in 4 000 runs; a refused try is
        // seen at once by its message, not after the poll's limit.
        for (let attempt = 0; attempt < 12 && !set; attempt++) {
          await bell.click();
          await page.getByTestId('price-alerts-dialog').waitFor(live);
          if (n === 0) await page.getByTestId('price-alerts-empty').waitFor(live);
          const input = page.getByTestId('price-alerts-price');
          const prefilled = await input.inputValue();
          expect(prefilled).toMatch(/^\d+\.\d{2}$/);
          await page.getByTestId(`price-alerts-${direction}`).click();
          const cent = direction === 'above' ? 0.01 : -0.01;
          await input.fill((Number(prefilled) + cent).toFixed(2));
          await page.getByTestId('price-alerts-set').click();
          const dialog = page.getByTestId('price-alerts-dialog');
          const outcome = async () =>
            (await count()) === n + 1
              ? 'set'
              : /already there/.test((await dialog.textContent()) ?? '')
                ? 'refused'
                : 'waiting';
          set = await expect
            .poll(outcome, { timeout: 10_000 })
            .not.toBe('waiting')
            .then(
              async () => (await outcome()) === 'set',
              () => false,
            );
          if (!set)
            tried.push(
              `${prefilled}: ${await page.getByTestId('price-alerts-dialog').textContent()}`,
            );
          await page.getByTestId('price-alerts-close').click();
        }
        expect(set, `${direction}: ${tried.join(' | ')}`).toBe(true);
      }

      // The server fires it at a tick; the notice says so on the page.
      const seen = () =>
        page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts ?? []);
      await page
        .waitForFunction(
          () =>
            ((window as unknown as { __toasts: string[] }).__toasts ?? []).some((t) =>
              /Bitcoin reached [\d,.]+ at \d\d:\d\d:\d\d \(tick #\d+\)/.test(t),
            ),
          undefined,
          live,
        )
        .catch(async (err: unknown) => {
          const state = await e2e.api<PriceAlerts>('/api/alerts?product=BTCUSDT', {}, token);
          throw new Error(
            `no notice: toasts ${JSON.stringify(await seen())}, alerts ${JSON.stringify(state)}: ${String(err)}`,
          );
        });
      const alerts = await e2e.api<PriceAlerts>('/api/alerts?product=BTCUSDT', {}, token);
      expect(alerts.active.length + alerts.fired.length).toBe(2);
      expect(alerts.fired.length).toBeGreaterThanOrEqual(1);
      const fired = alerts.fired[alerts.fired.length - 1]!;

      // The message list holds one message of it, naming the tick.
      const messages = await e2e.api<{ items: Message[] }>('/api/messages', {}, token);
      const mine = messages.items.filter((m) => m.kind === 'price_alert');
      expect(mine.map((m) => m.params.ref).sort()).toEqual(alerts.fired.map((a) => a.id).sort());
      const message = mine.find((m) => m.params.ref === fired.id)!;
      await page.goto(`${e2e.app.url}/#/pages/message/message`);
      const item = page.getByTestId(`message-${message.id}`);
      await item.waitFor(live);
      await expect.poll(() => item.textContent(), live).toContain('Price alert');
      await item.click();
      await expect
        .poll(() => page.getByTestId('messages').textContent(), live)
        .toContain(`(tick #${fired.fired!.seq})`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
