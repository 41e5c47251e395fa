import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { SavingsOverview, TestClockState } from '@shared/savings/model';
import { phonePage, startApp } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { images } from '@tests/support/wallet';
import { fundByDeposit, logInOverApi, registerOverApi } from '@tests/support/journey';

/**
 * Issue 8 journey: transfer in and see pending shares; move the test clock past the cut-off and
 * see them confirmed with the first income; transfer out; the details list all three.
 */
describe('savings balance (Chromium, embedded app with TEST_CLOCK=1)', () => {
  const e2e = useAppAndBrowser({ TEST_CLOCK: '1', SIM_BACKFILL_HOURS: '1' });

  const { api } = e2e;

  const account = `sav_${process.pid % 10_000}_${Date.now() % 100_000}`;
  const password = 'savings-pass-1';

  /** Registers with WELCOME, then funds the account the real way: deposit + operator CLI. */
  const fundedUser = async (amount: number): Promise<string> => {
    const token = await logInOverApi(e2e.app, await registerOverApi(e2e.app, account, password));
    await fundByDeposit(e2e.app, token, { channel: 'bank', amount }, images.png);
    return token;
  };

  const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
  const money = (minor: number) =>
    new Intl.NumberFormat('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
      (minor / 100).toFixed(2) as Intl.StringNumericLiteral,
    );
  /** Waits until every figure shows what it should. */
  const expectFigures = async (page: Page, figures: Record<string, string>) => {
    for (const [testId, value] of Object.entries(figures))
      await expect.poll(() => text(page, testId), { timeout: 10_000 }).toBe(value);
  };

  it('transfers in, sees pending shares confirmed with the first income after the cut-off, transfers out, and lists all three', async () => {
    const token = await fundedUser(500_000); // 5 000.00
    const { page, errors } = await phonePage(e2e.browser, { locale: 'zh-CN' });

    // Log in through the page, then the savings tab.
    await page.goto(`${e2e.app.url}/#/pages/login/login`);
    await page.getByTestId('account').fill(account);
    await page.getByTestId('password').fill(password);
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/index\/index/);
    await page.getByRole('link', { name: '活期理财' }).click();
    await page.waitForURL(/#\/pages\/money\/money/);
    await expectFigures(page, {
      'savings-total': money(0),
      'savings-rate': '3.65%',
      'in-remaining': '3',
      'out-remaining': '3',
    });
    await page.getByTestId('savings-empty').waitFor();

    // Transfer in 1 000.00 (the input keeps to the amount rule: two decimals at most).
    await page.getByTestId('savings-in').click();
    await page.getByTestId('savings-amount').fill('1000.009');
    expect(await page.getByTestId('savings-amount').inputValue()).toBe('1000.00');
    await page.getByTestId('savings-submit').click();
    await expectFigures(page, {
      'savings-pending': money(100_000),
      'savings-confirmed': money(0),
      'savings-total': money(100_000),
      'savings-yesterday-income': money(0),
      'in-remaining': '2',
    });

    // Past the cut-off: confirmed, with one day's income (1 000.00 × 3.65 % / 365 = 0.10).
    const before = await api<TestClockState>('/api/test/clock');
    await page.getByTestId('advance-clock').click();
    await expectFigures(page, {
      'savings-pending': money(0),
      'savings-confirmed': money(100_010),
      'savings-total': money(100_010),
      'savings-yesterday-income': money(10),
      'savings-total-income': money(10),
      'in-remaining': '3',
    });
    const after = await api<TestClockState>('/api/test/clock');
    expect(after.now).toBeGreaterThan(before.nextCutoff);

    // Transfer out 200.00.
    await page.getByTestId('savings-out').click();
    await page.getByTestId('savings-amount').fill('200');
    await page.getByTestId('savings-submit').click();
    await expectFigures(page, {
      'savings-confirmed': money(80_010),
      'savings-total': money(80_010),
      'out-remaining': '2',
    });
    const overview = await api<SavingsOverview>('/api/savings', {}, token);
    expect(overview).toMatchObject({ total: 80_010, pending: 0, totalIncome: 10 });

    // The details list the transfer in, the income and the transfer out, newest first.
    await page.getByTestId('savings-records-link').click();
    await page.waitForURL(/#\/pages\/Particulars\/Particulars/);
    const rows = page.locator('[data-testid^="record-"]');
    await expect.poll(() => rows.count()).toBe(3);
    const types = await Promise.all([0, 1, 2].map((i) => rows.nth(i).getAttribute('data-type')));
    expect(types).toEqual(['out', 'income', 'in']);
    const records = await api<{ items: { id: string; amount: number }[] }>(
      '/api/savings/records',
      {},
      token,
    );
    for (const r of records.items) {
      const row = page.getByTestId(`record-${r.id}`);
      expect(await row.innerText()).toContain(money(r.amount));
    }

    // The rules page answers with the rules, or says plainly that they are not there yet.
    await page.goto(`${e2e.app.url}/#/pages/money/detail`);
    await page
      .locator('[data-testid="savings-rules"], [data-testid="savings-rules-missing"]')
      .waitFor();

    expect(errors.filter((e) => !/Failed to load resource: .* status of 404/.test(e))).toEqual([]);
  }, 120_000);

  it('has no test clock on a server started without TEST_CLOCK', async () => {
    const plain = await startApp({ SIM_BACKFILL_HOURS: '0' });
    try {
      const res = await fetch(`${plain.url}/api/test/clock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ advanceMs: 86_400_000 }),
      });
      expect(res.status).toBe(404);
      const info = (await (await fetch(`${plain.url}/api/app-info`)).json()) as {
        testClock?: boolean;
      };
      expect(info.testClock).toBeUndefined();
    } finally {
      await plain.dispose();
    }
  }, 180_000);
});
