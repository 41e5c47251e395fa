import request from 'supertest';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import { meStatus, signIn, stored } from '@tests/support/account-security';
import { registerUser, type HttpApi } from '@tests/support/api';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';

/**
 * The trader's account security beside the journey (security-journey.test.ts), in the browser at
 * 390×844: the anti-phishing phrase on a known device's sign-in page, and a forgotten password
 * reset with a recovery code.
 */
describe('account security: phrase and password reset (Chromium, embedded app)', () => {
  let api: HttpApi;
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });
  beforeAll(() => {
    api = { http: request(e2e.app.url) };
  });

  it('shows the anti-phishing phrase to a known device only, and resets a forgotten password with a recovery code', async () => {
    const user = await registerUser(api, 'e2ephrase');
    const known = await phonePage(e2e.browser, { locale: 'en' });
    await signIn(known.page, e2e.app.url, user);
    const token = JSON.parse((await stored(known.page, 'token')) ?? 'null') as string;

    // Two-factor on over the api (the UI's way is security-journey.test.ts): its recovery codes.
    const { secret } = await e2e.api<{ secret: string }>(
      '/api/security/two-factor/enrol',
      { method: 'POST', body: JSON.stringify({ tradePassword: '123456' }) },
      token,
    );
    const { codes } = await e2e.api<{ codes: string[] }>(
      '/api/security/two-factor/confirm',
      { method: 'POST', body: JSON.stringify({ code: await generate({ secret }) }) },
      token,
    );

    // The phrase, set on the Security page with the transaction password.
    await known.page.goto(`${e2e.app.url}/#/pages/security/security`);
    await known.page.getByTestId('phrase-set').click();
    await known.page.getByTestId('phrase-input').fill('blue harbour 42');
    await known.page.getByTestId('trade-password').fill('123456');
    await known.page.getByTestId('phrase-form').getByTestId('submit').click();
    await expect
      .poll(() => known.page.getByTestId('phrase-value').innerText(), { timeout: 15_000 })
      .toBe('blue harbour 42');

    // The sign-in page of this device shows it under the account; a new device's does not.
    const again = await known.context.newPage();
    await again.goto(`${e2e.app.url}/#/pages/login/login`);
    await again.getByTestId('account').fill(user.account.toUpperCase());
    await expect
      .poll(() => again.getByTestId('sign-in-phrase').count(), { timeout: 15_000 })
      .toBe(1);
    expect(await again.getByTestId('sign-in-phrase').innerText()).toBe(
      'Your anti-phishing phrase: blue harbour 42',
    );
    const stranger = await phonePage(e2e.browser, { locale: 'en' });
    await stranger.page.goto(`${e2e.app.url}/#/pages/login/login`);
    await stranger.page.getByTestId('account').fill(user.account);
    await stranger.page.waitForTimeout(1_500);
    expect(await stranger.page.getByTestId('sign-in-phrase').count()).toBe(0);

    // Forgotten password, on the new device: a recovery code and the transaction password.
    await stranger.page.getByTestId('forgot-password').click();
    await stranger.page.getByTestId('reset-form').waitFor();
    await stranger.page.getByTestId('account').fill(user.account);
    await stranger.page.getByTestId('reset-code').fill(codes[0]!.toLowerCase());
    await stranger.page.getByTestId('trade-password').fill('123456');
    await stranger.page.getByTestId('new-password').fill('reset horse 2');
    await stranger.page.getByTestId('confirm-password').fill('reset horse 2');
    await stranger.page.getByTestId('submit').click();
    await stranger.page.waitForURL(/#\/pages\/login\/login$/, { timeout: 15_000 });
    await stranger.page.getByTestId('password-reset-done').waitFor();
    // Every session ended: the known device's too; it signs in with the new password, no code.
    await expect.poll(() => meStatus(known.page), { timeout: 15_000 }).toBe(401);
    await signIn(known.page, e2e.app.url, { ...user, password: 'reset horse 2' });

    // Without two-factor, the page says customer support resets it.
    const plain = await registerUser(api, 'e2eplain');
    await stranger.page.goto(`${e2e.app.url}/#/pages/password/forgot`);
    await stranger.page.getByTestId('account').fill(plain.account);
    await stranger.page.getByTestId('reset-code').fill('123456');
    await stranger.page.getByTestId('trade-password').fill('123456');
    await stranger.page.getByTestId('new-password').fill('reset horse 3');
    await stranger.page.getByTestId('confirm-password').fill('reset horse 3');
    await stranger.page.getByTestId('submit').click();
    await stranger.page.getByTestId('reset-two-factor-off').waitFor({ timeout: 15_000 });
    await stranger.context.close();
    await known.context.close();
  });
});
