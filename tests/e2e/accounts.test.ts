import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { registerOverApi } from '@tests/support/journey';

/**
 * Issue 4 journeys: register in two steps, log in, the personal centre and its invitation code,
 * languages, logout with confirmation, the route guard, and the server's refusals translated.
 */
describe('account journeys (Chromium, embedded app)', () => {
  let serial = 0;

  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });

  /** A fresh account name per test (4-20 word characters). */
  const newAccount = () => `e2e_${process.pid % 10_000}_${++serial}`;

  /** Registers through the API, for tests whose subject is not registration. */
  const registerByApi = (account: string, password = 'first-pass-1') =>
    registerOverApi(e2e.app, account, password);

  const open = async (page: Page, route: string) => {
    await page.goto(`${e2e.app.url}/#${route}`);
  };
  const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
  // Page-side code as strings: this file is type-checked with Node types, without the DOM's.
  const stored = (page: Page, key: string) =>
    page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(key)})`);
  const focusedTestId = (page: Page) =>
    page.evaluate<string | null>(`document.activeElement?.getAttribute('data-testid') ?? null`);
  const title = (page: Page) => page.locator('h1').innerText();
  /** Console errors other than the browser's own line for an expected 4xx answer. */
  const unexpected = (errors: string[]) =>
    errors.filter((e) => !/Failed to load resource: .* status of 4\d\d/.test(e));

  const logIn = async (page: Page, account: string, password: string) => {
    await page.getByTestId('account').fill(account);
    await page.getByTestId('password').fill(password);
    await page.getByTestId('submit').click();
  };

  it('registers, logs in, copies the code, switches language, logs out', async () => {
    const { context, page, errors } = await phonePage(e2e.browser, { locale: 'zh-CN' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.app.url });
    const account = newAccount();

    // Step 1, with the shared rules checked as the user types.
    await open(page, '/pages/login/registerCheck');
    await page.getByTestId('account').fill('ab');
    await page.getByTestId('phone').click();
    await expect.poll(() => page.getByTestId('account').getAttribute('aria-invalid')).toBe('true');
    expect(await text(page, 'account-error')).toBe('4–20 位字母、数字或下划线');
    await page.getByTestId('account').fill(account);
    await expect.poll(() => page.getByTestId('account-error').count()).toBe(0);
    await page.getByTestId('phone').fill('+8613800138000');
    await page.getByTestId('invite-code').fill('welcome');
    await page.getByTestId('submit').click();

    // Step 2: the confirmations must match, the transaction password is six keypad digits.
    await page.waitForURL(/#\/pages\/login\/register$/);
    expect(await page.getByTestId('trade-password').getAttribute('inputmode')).toBe('numeric');
    await page.getByTestId('password').fill('secret-pass-1');
    await page.getByTestId('password-confirm').fill('secret-pass-2');
    await page.getByTestId('trade-password').fill('12ab3456');
    expect(await page.getByTestId('trade-password').inputValue()).toBe('123456');
    await page.getByTestId('trade-password-confirm').fill('654321');
    await page.getByTestId('submit').click();
    expect(await text(page, 'password-confirm-error')).toBe('两次输入的密码不一致。');
    expect(await text(page, 'trade-password-confirm-error')).toBe('两次输入的交易密码不一致。');
    await page.getByTestId('password-confirm').fill('secret-pass-1');
    await page.getByTestId('trade-password-confirm').fill('123456');
    // The terms and risk disclosure must be accepted (brand-trust.test.ts checks the refusal).
    await page.getByTestId('accept-terms').check();
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/login\/login/);
    expect(await text(page, 'toast')).toBe('注册成功');
    expect(await page.getByTestId('account').inputValue()).toBe(account);

    // Login, then the personal centre.
    await page.getByTestId('password').fill('secret-pass-1');
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/index\/index/);
    await page.getByRole('link', { name: '我的' }).click();
    await page.waitForURL(/#\/pages\/user\/user/);
    expect(await text(page, 'user-account')).toBe(account);
    expect(await text(page, 'credit-score')).toBe('100');
    expect(await text(page, 'kyc-badge')).toBe('未认证');
    const code = await text(page, 'my-invite-code');
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect(code).not.toBe('WELCOME');
    // A new account's figures are real zeros, not made-up numbers.
    await expect.poll(() => page.getByTestId('total-assets').innerText()).toMatch(/^\D*0\.00\D*$/);

    await page.getByTestId('copy-invite-code').click();
    await expect.poll(() => text(page, 'toast')).toBe('开户码已复制');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(code);
    // The toast leaves after its 2000 ms (seed spec §9).
    await page.getByTestId('toast').waitFor({ state: 'detached', timeout: 3500 });

    // Languages: the settings switch re-words every screen, and the choice survives a reload.
    await page.getByTestId('menu-settings').click();
    await page.waitForURL(/#\/pages\/set\/set/);
    await expect.poll(() => title(page)).toBe('设置');
    await page.getByTestId('language-select').click();
    await page.getByTestId('language-option-en').click();
    await expect.poll(() => title(page)).toBe('Settings');
    expect(await text(page, 'clear-cache')).toBe('Clear cache');
    expect(await text(page, 'change-password')).toBe('Change login password');
    await page.getByTestId('language-select').click();
    await page.getByTestId('language-option-ja').click();
    await expect.poll(() => title(page)).toBe('設定');
    expect(await text(page, 'clear-cache')).toBe('キャッシュを削除');
    expect(await page.locator('html').getAttribute('lang')).toBe('ja');
    await page.getByRole('button', { name: '戻る' }).click();
    await page.waitForURL(/#\/pages\/user\/user/);
    await expect.poll(() => title(page)).toBe('マイページ');
    expect(await text(page, 'kyc-badge')).toBe('未認証');
    expect(await text(page, 'logout')).toBe('ログアウト');
    await page.reload();
    await expect.poll(() => title(page)).toBe('マイページ');
    expect(await text(page, 'user-account')).toBe(account);
    expect(await stored(page, 'i18nLang')).toBe('ja');

    // Logout asks first: Escape and Cancel keep the session, OK ends it.
    const dialog = page.getByRole('dialog');
    await page.getByTestId('logout').click();
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('ログアウトしますか？');
    await expect.poll(() => focusedTestId(page)).toBe('confirm-cancel');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('confirm-cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('logout').click();
    await page.getByTestId('confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/#\/pages\/user\/user$/);
    expect(await stored(page, 'token')).not.toBeNull();
    await page.getByTestId('logout').click();
    await page.getByTestId('confirm-ok').click();
    await page.waitForURL(/#\/pages\/login\/login\?redirect=%2Fpages%2Fuser%2Fuser$/);
    expect(await stored(page, 'token')).toBeNull();
    expect(await stored(page, 'userInfo')).toBeNull();

    // The personal centre needs a login again, and the login leads back to it.
    await open(page, '/pages/index/index');
    await page.getByTestId('product-row-BTCUSDT').waitFor();
    await open(page, '/pages/user/user');
    await page.waitForURL(/#\/pages\/login\/login\?redirect=%2Fpages%2Fuser%2Fuser$/);
    await logIn(page, account, 'secret-pass-1');
    await page.waitForURL(/#\/pages\/user\/user$/);
    expect(await text(page, 'user-account')).toBe(account);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a wrong password as the translated BAD_CREDENTIALS text', async () => {
    const account = newAccount();
    await registerByApi(account);
    for (const [locale, message] of [
      ['zh-CN', '账号或密码错误。'],
      ['en', 'Wrong account or password.'],
    ] as const) {
      const { context, page, errors } = await phonePage(e2e.browser, { locale });
      await open(page, '/pages/login/login');
      await logIn(page, account, 'not-the-password');
      expect(await text(page, 'form-error')).toBe(message);
      expect(page.url()).toMatch(/#\/pages\/login\/login$/);
      expect(unexpected(errors)).toEqual([]);
      await context.close();
    }
  });

  it('refuses an account that is taken on step 1, on the account input', async () => {
    const account = newAccount();
    await registerByApi(account);
    const { context, page, errors } = await phonePage(e2e.browser, { locale: 'zh-CN' });
    await open(page, '/pages/login/registerCheck');
    await page.getByTestId('account').fill(account);
    await page.getByTestId('phone').fill('13800138000');
    await page.getByTestId('invite-code').fill('WELCOME');
    await page.getByTestId('submit').click();
    await expect.poll(() => page.getByTestId('account').getAttribute('aria-invalid')).toBe('true');
    expect(await text(page, 'account-error')).toBe('该账号已被注册。');
    expect(page.url()).toMatch(/registerCheck$/);
    // A code nobody issued is refused on its own input.
    await page.getByTestId('account').fill(newAccount());
    await page.getByTestId('invite-code').fill('NOPE2345');
    await page.getByTestId('submit').click();
    await expect.poll(() => text(page, 'invite-code-error')).toBe('开户码无效。');
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('changes the login password from settings, refusing a wrong old one', async () => {
    const account = newAccount();
    await registerByApi(account);
    const { context, page, errors } = await phonePage(e2e.browser, { locale: 'zh-CN' });
    page.setDefaultTimeout(8000);
    await open(page, '/pages/set/set');
    await page.waitForURL(/login\?redirect=%2Fpages%2Fset%2Fset$/);
    await logIn(page, account, 'first-pass-1');
    await page.waitForURL(/#\/pages\/set\/set$/);
    await page.getByTestId('change-password').click();
    await page.waitForURL(/password\?kind=login$/);
    await page.getByTestId('old-password').fill('wrong-pass-1');
    await page.getByTestId('new-password').fill('second-pass-2');
    await page.getByTestId('confirm-password').fill('second-pass-3');
    await page.getByTestId('submit').click();
    expect(await text(page, 'confirm-password-error')).toBe('两次输入的密码不一致。');
    await page.getByTestId('confirm-password').fill('second-pass-2');
    await page.getByTestId('submit').click();
    await expect.poll(() => text(page, 'old-password-error')).toBe('密码错误。');
    await page.getByTestId('old-password').fill('first-pass-1');
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/set\/set$/);
    expect(await text(page, 'toast')).toBe('设置成功');

    // Clearing the cache asks, then signs out and forgets everything stored.
    await page.getByTestId('clear-cache').click();
    await page.getByTestId('confirm-ok').click();
    await page.waitForURL(/#\/pages\/login\/login\?redirect=%2Fpages%2Fset%2Fset$/);
    expect(await page.evaluate<number>('localStorage.length')).toBe(0);
    await logIn(page, account, 'second-pass-2');
    await page.waitForURL(/#\/pages\/set\/set$/);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });
});
