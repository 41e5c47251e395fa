import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import type { AccountSummary } from '@shared/wallet/model';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';

/**
 * Issue 19 journey: a newcomer registers with the invitation code WELCOME, opens BTCUSDT, and
 * places a practice order within 10 s of registering, with no deposit; it settles by itself,
 * the practice balance follows, the real balance stays 0.00; switched to Real, the ticket says
 * real trading starts with a deposit.
 */
describe('practice account (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '0' });

  const { api } = e2e;
  const zh = (minor: number) =>
    new Intl.NumberFormat('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
      minor / 100,
    );
  /** How long a live update may take on a busy machine. */
  const live = { timeout: 15_000 };

  it('registers, trades practice money within 10 s, settles, and keeps the real balance at 0.00', async () => {
    const { page, errors } = await phonePage(e2e.browser, { locale: 'zh-CN' });
    const text = (testId: string) => page.getByTestId(testId).first().innerText();
    const account = `prac_${process.pid % 10_000}_${Date.now() % 100_000}`;
    const password = 'practice-pass-1';

    // Register in the app's two steps, then log in.
    await page.goto(`${e2e.app.url}/#/pages/login/registerCheck`);
    await page.getByTestId('account').fill(account);
    await page.getByTestId('phone').fill('+8613800138000');
    await page.getByTestId('invite-code').fill('WELCOME');
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/login\/register$/);
    await page.getByTestId('password').fill(password);
    await page.getByTestId('password-confirm').fill(password);
    await page.getByTestId('trade-password').fill('123456');
    await page.getByTestId('trade-password-confirm').fill('123456');
    await page.getByTestId('accept-terms').check();
    await page.getByTestId('submit').click();
    const registeredAt = Date.now();
    await page.waitForURL(/#\/pages\/login\/login/);
    await page.getByTestId('password').fill(password);
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/index\/index/);

    // BTCUSDT: a newcomer with no real money lands in practice, marked as such, with the hint.
    await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
    await expect.poll(() => text('available-balance'), live).toBe(zh(1_000_000));
    expect(await page.getByTestId('mode-practice').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('header-mode-practice').getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await text('header-practice-band')).toContain('模拟');
    expect(await text('ticket-practice-band')).toContain('模拟资金，非真实资金，不可提现。');
    expect(await text('newcomer-hint')).toContain('充值后即可开始实盘交易');

    // A practice order: 100.00 up for the first duration, confirmed.
    await page.getByTestId('amount').fill('100');
    await page.getByTestId('buy-up').click();
    expect(await text('confirm-mode')).toBe('模拟');
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('toast').filter({ hasText: '购买成功' }).waitFor();
    const placedAfterMs = Date.now() - registeredAt;
    console.log(`practice order placed ${placedAfterMs} ms after registering`);
    expect(placedAfterMs).toBeLessThan(10_000);
    await expect.poll(() => text('available-balance'), live).toBe(zh(990_000));

    // It settles by itself (the same worker and rules as real orders).
    const token = (await page.evaluate<string>('JSON.parse(localStorage.getItem("token"))')) ?? '';
    const orders = await api<{ items: Order[] }>('/api/orders?mode=practice', {}, token);
    expect(orders.items).toHaveLength(1);
    const placed = orders.items[0]!;
    expect(placed).toMatchObject({ mode: 'practice', amount: 10_000, status: 'open' });
    expect((await api<{ items: Order[] }>('/api/orders', {}, token)).items).toEqual([]);
    let settled = placed;
    await expect
      .poll(
        async () => (settled = await api<Order>(`/api/orders/${placed.id}`, {}, token)).status,
        {
          timeout: placed.expiresAt - Date.now() + 15_000,
          interval: 500,
        },
      )
      .not.toBe('open');
    const practiceNow = 1_000_000 - 10_000 + settled.payout!;
    console.log(`practice order ${settled.status}: payout ${settled.payout}`);
    await expect.poll(() => text('available-balance'), live).toBe(zh(practiceNow));
    const summary = await api<AccountSummary>('/api/account/summary', {}, token);
    expect(summary).toMatchObject({
      available: 0,
      inOrders: 0,
      totalAssets: 0,
      pnlTotal: 0,
      practice: { available: practiceNow, inOrders: 0, pnlTotal: settled.payout! - 10_000 },
    });

    // Real: no band, the real balance 0.00, and the ticket says a deposit comes first.
    await page.getByTestId('header-mode-real').click();
    expect(await page.getByTestId('mode-real').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => text('available-balance')).toBe('0.00');
    expect(await page.getByTestId('header-practice-band').count()).toBe(0);
    expect(await page.getByTestId('ticket-practice-band').count()).toBe(0);
    expect(await text('deposit-needed')).toContain('实盘交易需先充值。您的实盘余额为 0.00。');
    expect(await page.getByTestId('deposit-link').getAttribute('href')).toBe(
      '#/pages/recharge/recharge',
    );
    expect(errors).toEqual([]);
  }, 180_000);
});
