import request from 'supertest';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Product } from '@shared/product';
import type { WithdrawalRules } from '@shared/wallet/model';
import { OPERATOR_TOKEN, registerUser, type HttpApi } from '@tests/support/api';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import {
  TRADE_PASSWORD,
  bindBank,
  fund,
  opsAuth,
  postKyc,
  readyUser,
  verifyKyc,
} from '@tests/support/wallet';

type User = Awaited<ReturnType<typeof registerUser>>;

/**
 * Issue 37, items 5, 8 and 9, on a 390×844 phone: a newcomer sees the 10 000.00 practice balance
 * on Home and in the personal centre, its counts apart from the real ones; the withdrawal page
 * shows a pending or rejected identity check instead of a form; Home shows what a withdrawal
 * holds; and amounts are checked as they are typed, in the ticket and the withdrawal form, in
 * Chinese and English (minimum, maximum, balance, decimals), the buttons waiting meanwhile.
 */
describe('practice on Home, identity on the withdrawal page, amounts checked as typed', () => {
  const e2e = useAppAndBrowser({ OPERATOR_TOKEN, SIM_BACKFILL_HOURS: '0' });
  const http = (): HttpApi => ({ http: request(e2e.app.url) });
  const live = { timeout: 15_000 };
  const money = (lang: string, minor: number) =>
    new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
      minor / 100,
    );

  /** A phone page in `lang`, signed in as `user`, at `route`. */
  async function visit(user: User, route: string, lang = 'zh-CN') {
    const { page, context, errors } = await phonePage(e2e.browser, { locale: lang });
    await page.addInitScript(
      `if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1');
        localStorage.setItem('i18nLang', ${JSON.stringify(lang)});
        localStorage.setItem('token', ${JSON.stringify(JSON.stringify(user.token))}); }`,
    );
    await page.goto(`${e2e.app.url}/#${route}`);
    return { page, context, errors };
  }
  const text = (page: Page, testId: string) => page.getByTestId(testId).first().innerText();

  /** A practice "up" order on BTCUSDT, retried while the simulator's first ticks arrive. */
  async function practiceOrder(user: User) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await http().http.post('/api/orders').set(user.auth).send({
        productId: 'BTCUSDT',
        direction: 'up',
        amount: 10_000,
        duration: 300,
        mode: 'practice',
      });
      if (res.status === 201) return;
      if (Date.now() > deadline) throw new Error(`order refused: ${res.status} ${res.text}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  it('shows a newcomer 10 000.00 practice on Home and in the personal centre, counted apart', async () => {
    const newcomer = await registerUser(http(), 'newbie');
    const { page, context, errors } = await visit(newcomer, '/pages/index/index');
    await expect.poll(() => text(page, 'practice-available'), live).toBe(money('zh-CN', 1_000_000));
    expect(await text(page, 'practice-card')).toContain('模拟余额');
    expect(await text(page, 'balance-available')).toBe('0.00');
    expect(await text(page, 'balance-card')).toContain('实盘余额');

    // Three open practice trades: counted on the practice card, not beside the real money.
    for (let i = 0; i < 3; i++) await practiceOrder(newcomer);
    await page.reload();
    await expect.poll(() => text(page, 'practice-open-trades'), live).toContain('模拟持仓中（3）');
    expect(await text(page, 'practice-in-trades')).toBe(money('zh-CN', 30_000));
    expect(await text(page, 'balance-in-trades')).toBe('0.00');
    expect(await page.getByTestId('open-trades-pill').count()).toBe(0);

    // One tap to trade in practice: the products, in practice mode.
    await page.getByTestId('trade-practice').click();
    await page.waitForURL(/#\/pages\/product\/product/);
    expect(await page.evaluate(() => localStorage.getItem('tradeMode'))).toContain('practice');

    await page.goto(`${e2e.app.url}/#/pages/user/user`);
    await expect.poll(() => text(page, 'practice-available'), live).toBe(money('zh-CN', 970_000));
    expect(await text(page, 'total-assets')).toBe('0.00');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows a pending or rejected identity check on the withdrawal page, with no form', async () => {
    const waiting = await registerUser(http(), 'waiting');
    await postKyc(http(), waiting.auth).expect(201);
    // A coin address needs no identity to bind: the form would have been there before.
    await http()
      .http.post('/api/withdrawal-accounts')
      .set(waiting.auth)
      .send({
        type: 'coin',
        network: 'TRC20',
        address: 'TXyZ7aBcDeFgHiJkLmNoPqRsTuVwXyZ123',
        tradePassword: TRADE_PASSWORD,
      })
      .expect(201);
    let { page, context } = await visit(waiting, '/pages/withdraw-money/withdraw-money', 'en');
    await page.getByTestId('withdraw-kyc').waitFor();
    expect(await page.getByTestId('withdraw-kyc').getAttribute('data-status')).toBe('pending');
    expect(await text(page, 'withdraw-kyc-status')).toBe('Verifying');
    expect(await text(page, 'withdraw-kyc-text')).toContain('once your identity is verified');
    expect(await page.getByTestId('amount').count()).toBe(0);
    expect(await page.getByTestId('submit').count()).toBe(0);
    expect(await page.getByTestId('kyc-link').count()).toBe(0);
    await context.close();

    // Rejected: the reviewer's reason, and the way to submit again.
    const list = await http().http.get('/api/ops/kyc?status=pending&limit=100').set(opsAuth);
    const check = (list.body.items as { id: string; userId: string }[]).find(
      (k) => k.userId === waiting.user.id,
    );
    await http()
      .http.post(`/api/ops/kyc/${check!.id}/reject`)
      .set(opsAuth)
      .send({ reason: 'Photo is blurred' })
      .expect(200);
    ({ page, context } = await visit(waiting, '/pages/withdraw-money/withdraw-money', 'en'));
    await expect
      .poll(() => page.getByTestId('withdraw-kyc').getAttribute('data-status'), live)
      .toBe('rejected');
    expect(await text(page, 'withdraw-kyc-reason')).toContain('Photo is blurred');
    expect(await text(page, 'kyc-link')).toBe('Submit again');
    expect(await page.getByTestId('kyc-link').getAttribute('href')).toBe('#/pages/verify/verify');
    expect(await page.getByTestId('amount').count()).toBe(0);
    await context.close();
  }, 120_000);

  it("shows on Home's balance card what a pending withdrawal holds", async () => {
    const trader = await readyUser(http(), 1_000_000, 'holder');
    await http()
      .http.post('/api/withdrawals')
      .set(trader.auth)
      .send({ accountId: trader.accountId, amount: 30_000, tradePassword: TRADE_PASSWORD })
      .expect(201);
    const { page, context } = await visit(trader, '/pages/index/index', 'en');
    await expect.poll(() => text(page, 'balance-withdrawing'), live).toBe(money('en', 30_000));
    expect(await text(page, 'balance-card')).toContain('Being withdrawn');
    expect(await text(page, 'balance-available')).toBe(money('en', 970_000));
    await context.close();
  }, 120_000);

  /** Types `input` and reads the message under the field (null when there is none). */
  async function typed(page: Page, input: string, problem: string) {
    await page.getByTestId('amount').fill(input);
    expect(await page.getByTestId('amount').inputValue()).toBe(input);
    const shown = page.getByTestId(problem);
    return (await shown.count()) === 0 ? null : shown.innerText();
  }

  for (const lang of ['zh-CN', 'en'] as const) {
    const words =
      lang === 'en'
        ? {
            min: 'Minimum ',
            max: 'Maximum ',
            balance: 'More than your balance of ',
            decimals: 'At most 2 decimal places',
          }
        : { min: '最低 ', max: '最高 ', balance: '超出余额 ', decimals: '最多 2 位小数' };

    it(`checks the ticket's amount as it is typed (${lang})`, async () => {
      const trader = await registerUser(http(), 'ticket');
      await fund(http(), trader, 123_400);
      const btc = (await http().http.get('/api/market/products/BTCUSDT').expect(200))
        .body as Product;
      const { page, context, errors } = await visit(
        trader,
        '/pages/Detail/Detail?id=BTCUSDT',
        lang,
      );
      await expect.poll(() => text(page, 'available-balance'), live).toBe(money(lang, 123_400));
      const buy = page.getByTestId('buy-up');
      const profit = () => text(page, 'estimate-profit');

      expect(await typed(page, '5', 'amount-problem')).toBe(words.min + money(lang, btc.minStake));
      expect(await buy.isDisabled()).toBe(true);
      expect(await profit()).toBe('--');
      expect(await buy.getAttribute('aria-describedby')).toBe('ticket-problem');

      expect(await typed(page, '99999999', 'amount-problem')).toBe(
        words.max + money(lang, btc.maxStake),
      );
      expect(await buy.isDisabled()).toBe(true);
      expect(await profit()).toBe('--');

      expect(await typed(page, '1234.01', 'amount-problem')).toBe(
        words.balance + money(lang, 123_400),
      );
      expect(await buy.isDisabled()).toBe(true);

      expect(await typed(page, '12.345', 'amount-problem')).toBe(words.decimals);
      expect(await buy.isDisabled()).toBe(true);

      expect(await typed(page, '100', 'amount-problem')).toBeNull();
      expect(await buy.isEnabled()).toBe(true);
      expect(await profit()).not.toBe('--');
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);

    it(`checks the withdrawal amount as it is typed (${lang})`, async () => {
      const trader = await registerUser(http(), 'payout');
      await verifyKyc(http(), trader);
      await bindBank(http(), trader);
      await fund(http(), trader, 123_400);
      const rules = (await http().http.get('/api/withdrawals/rules').set(trader.auth).expect(200))
        .body as WithdrawalRules;
      const { page, context, errors } = await visit(
        trader,
        '/pages/withdraw-money/withdraw-money',
        lang,
      );
      await expect
        .poll(() => text(page, 'withdraw-available'), live)
        .toContain(money(lang, 123_400));
      const submit = page.getByTestId('submit');
      const usdt = (minor: number) => `${money(lang, minor)} USDT`;

      expect(await typed(page, '5', 'amount-error')).toBe(words.min + usdt(rules.min));
      expect(await submit.isDisabled()).toBe(true);
      expect(await page.getByTestId('amount').getAttribute('aria-invalid')).toBe('true');
      expect(await typed(page, '99999999', 'amount-error')).toBe(words.max + usdt(rules.max));
      expect(await submit.isDisabled()).toBe(true);
      expect(await typed(page, '1234.01', 'amount-error')).toBe(words.balance + usdt(123_400));
      expect(await submit.isDisabled()).toBe(true);
      expect(await typed(page, '12.345', 'amount-error')).toBe(words.decimals);
      expect(await submit.isDisabled()).toBe(true);
      expect(await text(page, 'quote-fee')).toBe('--');

      expect(await typed(page, '100', 'amount-error')).toBeNull();
      expect(await submit.isEnabled()).toBe(true);
      expect(await text(page, 'quote-fee')).not.toBe('--');
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
