import { afterAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { BrowserContext, Page } from 'playwright-core';
import { useAppAndBrowser } from '@tests/support/e2e';
import { OPERATOR_TOKEN, registerUser, type HttpApi } from '@tests/support/api';
import { operatorSession } from '@tests/support/operators';
import { enrolTwoFactor } from '@tests/support/two-factor';

/**
 * Issue 39 in the operator console (a real browser): support sees a user's two-factor state and
 * sessions, ends one session, and requests a two-factor reset with the ticket and what was
 * checked; the requester cannot approve it, another admin can, and the profile then shows when
 * it takes effect.
 */
describe('two-factor reset in the operator console', () => {
  const contexts: BrowserContext[] = [];
  const e2e = useAppAndBrowser({ OPERATOR_TOKEN, SIM_BACKFILL_HOURS: '0' });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
  });

  /** The console signed in as `o` (its session put where the console keeps it), on a profile. */
  const profileAs = async (o: { name: string; token: string }, userId: string): Promise<Page> => {
    const context = await e2e.browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${e2e.app.url}/ops/`);
    await page.evaluate((s) => sessionStorage.setItem('ops.session', JSON.stringify(s)), {
      token: o.token,
      name: o.name,
      expiresAt: Date.now() + 3_600_000,
    });
    // Only a hash changes: the reload makes the console read the session it now holds.
    await page.goto(`${e2e.app.url}/ops/#/users/${userId}`);
    await page.reload();
    await page.getByTestId('user-two-factor').waitFor();
    return page;
  };
  const panelText = (page: Page) => page.getByTestId('user-two-factor').innerText();

  it('shows the state, ends one session, and takes a reset through request and approval', async () => {
    const api: HttpApi = { http: request(e2e.app.url) };
    const u = await registerUser(api, 'tfui');
    await enrolTwoFactor(api, u);
    const support = await operatorSession(api, 'support');
    const admin = await operatorSession(api, 'admin');

    const page = await profileAs(support, u.user.id);
    expect(await page.getByTestId('tfa-state').innerText()).toMatch(/^On since /);
    expect(await panelText(page)).toMatch(/Recovery codes left\s+10/);
    // One session, with its device and address, and End.
    const rows = page.getByTestId('user-sessions').locator('tbody tr');
    expect(await rows.count()).toBe(1);
    await rows.first().getByRole('button', { name: 'End', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(0);
    await api.http.get('/api/account/summary').set(u.auth).expect(401);

    await page.getByTestId('tfa-reset-request').click();
    const dialog = page.getByTestId('tfa-reset-dialog');
    await dialog.getByRole('button', { name: 'Request 2FA reset' }).click();
    expect(await dialog.locator('.ops-field-error').allInnerTexts()).toEqual([
      'Enter the ticket reference.',
      'Say what was checked.',
    ]);
    await dialog.getByLabel('Ticket').fill('T-2077');
    await dialog.getByLabel(/What support checked/).fill('ID and selfie match the KYC record');
    await dialog.getByRole('button', { name: 'Request 2FA reset' }).click();
    await expect.poll(() => panelText(page)).toMatch(/Reset pending/);
    expect(await panelText(page)).toContain('T-2077');
    expect(await panelText(page)).toContain('Waiting for an admin other than the requester');
    // Support cannot approve; the admin can.
    expect(await page.getByTestId('tfa-reset-approve').count()).toBe(0);

    const adminPage = await profileAs(admin, u.user.id);
    await adminPage.getByTestId('tfa-reset-approve').click();
    await expect.poll(() => adminPage.getByTestId('tfa-reset-effective').innerText()).toMatch(/\d/);
    expect(await panelText(adminPage)).toContain(admin.name);
    await adminPage.getByTestId('tfa-reset-cancel').click();
    await expect.poll(() => panelText(adminPage)).not.toMatch(/Reset pending/);
    expect(await adminPage.locator('.ops-notice').innerText()).toBe('Reset cancelled.');
  });
});
