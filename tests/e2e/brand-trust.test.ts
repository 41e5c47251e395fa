import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { logInOverApi, registerOverApi } from '@tests/support/journey';

/**
 * Brand and trust, and the account forms: the logo and name in the header, the risk warning on
 * registration and on the docked ticket, the terms consent, the forgotten-password route, the
 * password show/hide button and the phone's country code, stored as picked.
 */
describe('brand, trust and forms (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });

  const riskText = 'Trading carries a high risk';
  const open = (page: Page, route: string) => page.goto(`${e2e.app.url}/#${route}`);
  const text = (page: Page, testId: string) => page.getByTestId(testId).first().innerText();

  it('shows the logo and the app name in the header, and the way to customer support from login', async () => {
    const { context, page, errors } = await phonePage(e2e.browser, { locale: 'en' });
    await open(page, '/pages/index/index');
    const h1 = page.locator('h1');
    await expect.poll(() => h1.getByTestId('app-name').innerText()).toBe('Trade');
    expect(await h1.getByTestId('logo').isVisible()).toBe(true);

    // Login: the brand on top, "Forgot password?" one tap from the form.
    await open(page, '/pages/login/login');
    expect(await text(page, 'app-name')).toBe('Trade');
    await page.getByTestId('forgot-password').click();
    await page.waitForURL(/#\/pages\/password\/forgot$/);
    // The page's code loads after the URL changes: until it draws, the heading is the last one.
    await expect.poll(() => page.locator('h1').innerText()).toBe('Forgot password');
    const support = page.getByTestId('contact-support');
    expect(await support.innerText()).toBe('Contact customer support');
    expect(await support.getAttribute('href')).toBe('https://example.com/support');
    expect(await support.getAttribute('target')).toBe('_blank');
    const box = (await support.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);

    // The password's show/hide button: pressed shows the text, pressed again hides it.
    await page.goBack();
    await page.waitForURL(/#\/pages\/login\/login/);
    const password = page.getByTestId('password');
    const toggle = page.getByTestId('password-toggle');
    await password.fill('secret-pass-1');
    expect(await password.getAttribute('type')).toBe('password');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await toggle.getAttribute('aria-label')).toBe('Show password');
    const toggleBox = (await toggle.boundingBox())!;
    expect(Math.min(toggleBox.width, toggleBox.height)).toBeGreaterThanOrEqual(44);
    await toggle.click();
    expect(await password.getAttribute('type')).toBe('text');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await password.inputValue()).toBe('secret-pass-1');
    await toggle.click();
    expect(await password.getAttribute('type')).toBe('password');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('registers with a picked country code and the terms accepted, showing the risk and the company', async () => {
    const { context, page, errors } = await phonePage(e2e.browser, { locale: 'en' });
    const account = `bt_${process.pid % 10_000}_${Date.now() % 100_000}`;
    await open(page, '/pages/login/registerCheck');
    expect(await text(page, 'risk-warning')).toContain(riskText);
    expect(await text(page, 'legal-entity')).toBe('Operated by Example Trading Ltd (demo)');
    expect(await text(page, 'legal-registration')).toMatch(/demo/);

    // The country code: English starts on +1; Japan picked from the searchable list.
    const code = page.getByTestId('phone-country');
    expect(await code.innerText()).toContain('+1');
    await code.click();
    await page.getByTestId('phone-country-search').fill('japan');
    await page.getByTestId('phone-country-option-JP').click();
    await expect.poll(() => code.innerText()).toContain('+81');
    expect(await code.getAttribute('data-value')).toBe('JP');

    await page.getByTestId('account').fill(account);
    await page.getByTestId('phone').fill('090 1234 5678');
    await page.getByTestId('invite-code').fill('WELCOME');
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/login\/register$/);

    // Step 2: no account without the terms and risk disclosure accepted.
    expect(await text(page, 'risk-warning')).toContain(riskText);
    await page.getByTestId('password').fill('brand-pass-1');
    await page.getByTestId('password-confirm').fill('brand-pass-1');
    await page.getByTestId('trade-password').fill('123456');
    await page.getByTestId('trade-password-confirm').fill('123456');
    await page.getByTestId('submit').click();
    await expect
      .poll(() => text(page, 'accept-terms-error'))
      .toBe('Please confirm that you have read the terms of service and the risk disclosure.');
    expect(page.url()).toMatch(/register$/);
    await page.getByTestId('accept-terms').check();
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/login\/login/);

    // The server keeps the number with the code picked.
    const token = await logInOverApi(e2e.app, { account, password: 'brand-pass-1' });
    const me = (await (
      await fetch(`${e2e.app.url}/api/me`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as { phone: string };
    expect(me.phone).toBe('+819012345678');
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  });

  it('shows the risk line in the docked ticket, one line, the buy buttons on a 360×780 screen', async () => {
    const token = await logInOverApi(
      e2e.app,
      await registerOverApi(e2e.app, `btt_${Date.now() % 1e6}`),
    );
    const context = await e2e.browser.newContext({
      viewport: { width: 360, height: 780 },
      locale: 'en',
      deviceScaleFactor: 1,
      hasTouch: true,
    });
    await context.addInitScript(
      `localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))})`,
    );
    const page = await context.newPage();
    await open(page, '/pages/Detail/Detail?id=BTCUSDT');
    await page.getByTestId('buy-up').waitFor();
    const risk = page.getByTestId('ticket-dock').getByTestId('risk-warning');
    // The ticket's short sentence, whole (not cut with an ellipsis), the long one in its title.
    expect(await risk.innerText()).toBe('High risk: you can lose the whole amount of an order.');
    expect(await risk.getAttribute('title')).toContain(riskText);
    expect(await risk.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const line = (await risk.boundingBox())!;
    expect(line.height).toBeLessThanOrEqual(24);
    expect(line.y + line.height).toBeLessThanOrEqual(780);
    for (const id of ['buy-up', 'buy-down']) {
      const b = (await page.getByTestId(id).boundingBox())!;
      expect(b.y).toBeGreaterThanOrEqual(0);
      expect(b.y + b.height).toBeLessThanOrEqual(line.y);
    }
    await context.close();
  });
});
