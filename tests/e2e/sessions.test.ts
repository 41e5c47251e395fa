import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { OPERATOR_TOKEN, registerUser, type HttpApi } from '@tests/support/api';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { fund, type TestUser } from '@tests/support/wallet';

/**
 * Sessions that end under the user: a password changed on another device takes this page to
 * the login page with a notice, while a server restart does not sign anyone out.
 */
describe('session journeys (Chromium, embedded app)', () => {
  let api: HttpApi;

  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1', OPERATOR_TOKEN });
  beforeAll(() => {
    api = { http: request(e2e.app.url) };
  });

  const stored = (page: Page, key: string) =>
    page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(key)})`);
  const totalAssets = (page: Page) => page.getByTestId('total-assets').innerText();

  /**
   * Logs `user` in through the login page and opens the personal centre; returns once a balance
   * event has reached the page, so its socket is signed in (in its user and session rooms).
   */
  const signedInPage = async (user: TestUser, locale: string) => {
    const { context, page, errors } = await phonePage(e2e.browser, { locale });
    await page.goto(`${e2e.app.url}/#/pages/login/login`);
    await page.getByTestId('account').fill(user.account);
    await page.getByTestId('password').fill(user.password);
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/index\/index/);
    await page.goto(`${e2e.app.url}/#/pages/user/user`);
    await expect.poll(() => totalAssets(page), { timeout: 15_000 }).toMatch(/^\D*0\.00\D*$/);
    await fund(api, user, 12_300);
    await expect.poll(() => totalAssets(page), { timeout: 15_000 }).toMatch(/123\.00/);
    return { context, page, errors };
  };

  it('a password changed on another device: this page goes to the login page and says why', async () => {
    const user = await registerUser(api, 'e2epw');
    const { context, page } = await signedInPage(user, 'en');

    // Another device logs in and changes the login password: every other session ends.
    const other = await api.http
      .post('/api/auth/login')
      .send({ account: user.account, password: user.password })
      .expect(200);
    await api.http
      .post('/api/me/password')
      .set('Authorization', `Bearer ${other.body.token as string}`)
      .send({
        oldPassword: user.password,
        newPassword: 'changed elsewhere 1',
        confirmPassword: 'changed elsewhere 1',
      })
      .expect(204);

    await page.waitForURL(/#\/pages\/login\/login\?redirect=%2Fpages%2Fuser%2Fuser$/);
    expect(await page.getByTestId('session-ended').innerText()).toBe(
      'Your login password was changed on another device, so you were logged out here. Please log in again.',
    );
    expect(await stored(page, 'token')).toBeNull();
    expect(await stored(page, 'userInfo')).toBeNull();

    // Logging in with the new password leads back, and the notice is gone.
    await page.getByTestId('account').fill(user.account);
    await page.getByTestId('password').fill('changed elsewhere 1');
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/user\/user$/);
    expect(await page.getByTestId('session-ended').count()).toBe(0);
    await context.close();
  });

  it('a server restart keeps the session: the page reconnects signed in and hears its events again', async () => {
    const user = await registerUser(api, 'e2erestart');
    const { context, page } = await signedInPage(user, 'zh-CN');
    await e2e.app.stop();
    await page.getByTestId('network-lost').waitFor({ timeout: 15_000 });
    await e2e.app.start();
    await page.getByTestId('network-lost').waitFor({ state: 'detached', timeout: 30_000 });

    // A balance event after the restart reaches the page: its socket is signed in again.
    await fund(api, user, 10_000);
    await expect.poll(() => totalAssets(page), { timeout: 15_000 }).toMatch(/223\.00/);
    expect(page.url()).toMatch(/#\/pages\/user\/user$/);
    expect(await stored(page, 'token')).not.toBeNull();
    expect(await page.getByTestId('session-ended').count()).toBe(0);
    await context.close();
  });
});
