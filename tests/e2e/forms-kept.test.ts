import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { logInOverApi, onePixelPng, registerOverApi } from '@tests/support/journey';

/**
 * Issue 37: what a trader typed is not lost and what they must wait for is said. Registration
 * ends on the login page with the account filled in and the browser told which fields are the
 * username and the new password (its password manager offers it there); a locked-out login
 * counts down the wait; a half-filled deposit form comes back after Back and forward, without its
 * screenshot, and is gone once sent.
 */
describe('sign-in and deposit drafts (Chromium, embedded app, English)', () => {
  let serial = 0;
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '0' });

  const newAccount = () => `fk_${process.pid % 10_000}_${++serial}`;
  const open = (page: Page, route: string) => page.goto(`${e2e.app.url}/#${route}`);
  const attr = (page: Page, testId: string, name: string) =>
    page.getByTestId(testId).getAttribute(name);
  const value = (page: Page, testId: string) => page.getByTestId(testId).inputValue();
  // Page-side code as strings: this file is type-checked with Node types, without the DOM's.
  const storedText = (page: Page) =>
    page.evaluate<string>(
      `JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])`,
    );
  const signedIn = async (token: string) => {
    const phone = await phonePage(e2e.browser, { locale: 'en' });
    await phone.context.addInitScript(
      `localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))})`,
    );
    phone.page.setDefaultTimeout(15_000);
    return phone;
  };

  it('registers with the password manager’s fields and lands on login with the account filled in', async () => {
    const { context, page } = await phonePage(e2e.browser, { locale: 'en' });
    const account = newAccount();
    await open(page, '/pages/login/registerCheck');
    expect(await attr(page, 'account', 'autocomplete')).toBe('username');
    await page.getByTestId('account').fill(account);
    await page.getByTestId('phone').fill('+8613800138000');
    await page.getByTestId('invite-code').fill('welcome');
    await page.getByTestId('submit').click();

    // Step 2: the account rides along as the form's username; both passwords are new ones.
    await page.waitForURL(/#\/pages\/login\/register$/);
    expect(await attr(page, 'register-username', 'autocomplete')).toBe('username');
    expect(await value(page, 'register-username')).toBe(account);
    expect(await attr(page, 'password', 'autocomplete')).toBe('new-password');
    expect(await attr(page, 'password-confirm', 'autocomplete')).toBe('new-password');
    // The transaction password is not the login's: no password manager offers it.
    expect(await attr(page, 'trade-password', 'autocomplete')).toBe('off');
    await page.getByTestId('password').fill('secret-pass-1');
    await page.getByTestId('password-confirm').fill('secret-pass-1');
    await page.getByTestId('trade-password').fill('123456');
    await page.getByTestId('trade-password-confirm').fill('123456');
    await page.getByTestId('accept-terms').check();
    await page.getByTestId('submit').click();

    // Login: the account in place, the password left to the password manager (never stored).
    await page.waitForURL(/#\/pages\/login\/login$/);
    expect(await value(page, 'account')).toBe(account);
    expect(await attr(page, 'account', 'autocomplete')).toBe('username');
    expect(await attr(page, 'password', 'autocomplete')).toBe('current-password');
    expect(await value(page, 'password')).toBe('');
    expect(page.url()).not.toContain('secret-pass-1');
    expect(await storedText(page)).not.toContain('secret-pass-1');
    // One field to fill, and in.
    await page.getByTestId('password').fill('secret-pass-1');
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/index\/index/);
    await context.close();
  });

  it('counts down a login lock-out instead of “try again later”', async () => {
    const user = await registerOverApi(e2e.app, newAccount());
    // Ten wrong passwords from this address lock the pair for the rest of its 15 minutes.
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${e2e.app.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ account: user.account, password: `wrong-${i}` }),
      });
      expect(res.status).toBe(401);
    }
    const { context, page } = await phonePage(e2e.browser, { locale: 'en' });
    await open(page, '/pages/login/login');
    await page.getByTestId('account').fill(user.account);
    await page.getByTestId('password').fill(user.password);
    await page.getByTestId('submit').click();
    const lockout = page.getByTestId('lockout');
    const first = await lockout.innerText();
    // One unbreakable run: no-break spaces between the figures and their units.
    expect(first).toMatch(
      /^Too many attempts\. Try again in\u00a01[45]\u00a0min\u00a0\d{1,2}\u00a0s\.$/,
    );
    expect(await page.getByTestId('form-error').count()).toBe(0);
    // Live: the figure moves on its own.
    await expect.poll(() => lockout.innerText(), { timeout: 5_000 }).not.toBe(first);
    await context.close();
  });

  it('keeps a half-filled bank deposit through Back and forward, without its screenshot, until it is sent', async () => {
    const token = await logInOverApi(e2e.app, await registerOverApi(e2e.app, newAccount()));
    const { context, page } = await signedIn(token);
    await open(page, '/pages/transfer/transfer?channel=bank');
    await page.getByTestId('amount').fill('200');
    await page.getByTestId('submit').click();
    await page.waitForURL(/recharge-bank-card\?amount=20000$/);
    await page.getByTestId('amount').fill('250');
    await page.getByTestId('payer-bank').fill('Bank of Tests');
    await page.getByTestId('payer-card').fill('6222020012345678');
    await page.getByTestId('payer-name').fill('Test Payer');
    await page.getByTestId('remark').fill('half done');
    await page
      .getByTestId('screenshot')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: onePixelPng });
    await page.getByTestId('screenshot-preview').waitFor();

    await page.goBack();
    await page.waitForURL(/transfer\?channel=bank$/);
    await page.goForward();
    await page.waitForURL(/recharge-bank-card\?amount=20000$/);
    // The draft's fields are put back as the page draws (the amount after the link's own): each
    // is waited for, not read once.
    await expect.poll(() => value(page, 'payer-bank')).toBe('Bank of Tests');
    await expect.poll(() => value(page, 'amount')).toBe('250');
    await expect.poll(() => value(page, 'payer-card')).toBe('6222020012345678');
    await expect.poll(() => value(page, 'payer-name')).toBe('Test Payer');
    await expect.poll(() => value(page, 'remark')).toBe('half done');
    // The screenshot is picked again: it is never kept.
    expect(await page.getByTestId('screenshot-preview').count()).toBe(0);
    const stored = await storedText(page);
    expect(stored).toContain('Bank of Tests');
    expect(stored).not.toContain('receipt.png');
    expect(stored).not.toContain('data:image');
    expect(stored).not.toMatch(/screenshot/i);

    // A new amount from the amount step wins over the one typed; the payer stays.
    await page.goBack();
    await page.getByTestId('amount').fill('300');
    await page.getByTestId('submit').click();
    await page.waitForURL(/recharge-bank-card\?amount=30000$/);
    await expect.poll(() => value(page, 'payer-bank')).toBe('Bank of Tests');
    await expect.poll(() => value(page, 'amount')).toBe('300');

    // Sent: the draft is gone, and the next deposit starts empty.
    await page
      .getByTestId('screenshot')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: onePixelPng });
    await page.getByTestId('submit').click();
    await page.waitForURL(/withdraw-open$/);
    expect(await storedText(page)).not.toContain('Bank of Tests');
    await open(page, '/pages/recharge/recharge-bank-card?amount=10000');
    await page.getByTestId('payer-bank').waitFor();
    expect(await value(page, 'payer-bank')).toBe('');
    expect(await value(page, 'amount')).toBe('100');
    await context.close();
  });

  it('keeps a half-filled USDT claim through Back and forward, under the user and channel', async () => {
    const token = await logInOverApi(e2e.app, await registerOverApi(e2e.app, newAccount()));
    const { context, page } = await signedIn(token);
    const txId = `0x${'ab'.repeat(32)}`;
    await open(page, '/pages/recharge/recharge-usdt-erc20');
    await page.getByTestId('claim-open').click();
    await page.waitForURL(/claim=1$/);
    await page.getByTestId('tx-id').fill(txId);
    await page.getByTestId('remark').fill('sent at noon');
    await page.goBack();
    await page.getByTestId('claim-open').waitFor();
    await page.goForward();
    await expect.poll(() => value(page, 'tx-id')).toBe(txId);
    expect(await value(page, 'remark')).toBe('sent at noon');
    // Kept under this user and channel: another user of the tab has a key of their own.
    const me = await e2e.api<{ id: string }>('/api/me', {}, token);
    expect(await storedText(page)).toContain(`deposit-draft:${me.id}:usdt-erc20`);
    await context.close();
  });
});
