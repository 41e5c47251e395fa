import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestClockState } from '@shared/savings/model';
import type { WithdrawalAccount } from '@shared/wallet/model';
import {
  approveDeposit,
  authenticator,
  meStatus,
  pendingBankDeposit,
  signIn,
  stored,
  verifyIdentity,
} from '@tests/support/account-security';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { logInOverApi, onePixelPng, registerOverApi } from '@tests/support/journey';
import { gradientPng as png } from '@tests/support/png';

const HOUR = 3_600_000;

/**
 * Account security as one journey (issue 39, must-show 3), in the browser at 390×844: a verified
 * trader's first deposit is credited and the app urges two-factor sign-in; it is turned on from
 * the Security page (the key read off the page, each code computed as an authenticator app
 * would), its recovery codes shown once; a second device (no device token) is asked for a code
 * at sign-in; both sessions are listed on the first, which signs the second out; a coin address
 * linked with a code is held for 24 hours (its countdown on the server's platform clock), a
 * withdrawal to it refused until the test clock (TEST_CLOCK=1) has moved past the hold, when the
 * countdown ends by itself and withdrawals with a code, or a recovery code, go through.
 */
describe('account security journey (Chromium, embedded app with TEST_CLOCK=1)', () => {
  // The test support starts apps without the hold; this journey is about it.
  const e2e = useAppAndBrowser({
    TEST_CLOCK: '1',
    SIM_BACKFILL_HOURS: '1',
    WITHDRAWAL_ACCOUNT_HOLD_HOURS: '24',
  });
  const { api } = e2e;

  const stamp = `${process.pid % 10_000}_${Date.now() % 100_000}`;
  const open = (page: Page, route: string) => page.goto(`${e2e.app.url}/#${route}`);
  const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
  const unexpected = (errors: string[]) =>
    errors.filter((e) => !/401|Failed to load resource: .* status of 4\d\d/.test(e));
  const photo = () => new Blob([new Uint8Array(png(60, 40))], { type: 'image/png' });

  /** Fills the withdraw form for `accountId` (with `code` in the code field) and sends it. */
  const withdraw = async (page: Page, accountId: string, amount: string, code: string) => {
    await page.getByTestId(`account-option-${accountId}`).check();
    await page.getByTestId('amount').fill(amount);
    await page.getByTestId('trade-password').fill('123456');
    await page.getByTestId('tfa-code').fill(code);
    await page.getByTestId('submit').click();
  };

  it('turns two-factor on after the first deposit, signs a second device in and out, links an account and withdraws after its hold', async () => {
    // A verified trader whose first deposit (5 000.00) is under review.
    const account = `sec_${stamp}`;
    const user = await registerOverApi(e2e.app, account);
    const apiToken = await logInOverApi(e2e.app, user);
    await verifyIdentity(e2e.app, apiToken, account, photo);
    const depositId = await pendingBankDeposit(e2e.app, apiToken, 500_000, onePixelPng);

    // The first device signs in (the password alone: two-factor is off) and keeps a device token.
    const first = await phonePage(e2e.browser, { locale: 'en' });
    const page = first.page;
    await signIn(page, e2e.app.url, user);
    expect(await stored(page, `device:${account.toLowerCase()}`)).not.toBeNull();

    // On the personal centre, the credit of the first deposit brings the prompt, live.
    await open(page, '/pages/user/user');
    await page.getByTestId('user-account').waitFor({ timeout: 15_000 });
    await approveDeposit(e2e.app, depositId);
    await page.getByTestId('tfa-prompt').waitFor({ timeout: 15_000 });
    await page.getByTestId('tfa-prompt-turn-on').click();
    await page.waitForURL(/#\/pages\/security\/security$/);
    // The menu leads there too: Me → Security.
    await open(page, '/pages/user/user');
    await page.getByTestId('menu-security').click();
    await page.waitForURL(/#\/pages\/security\/security$/);
    const tfaState = page.getByTestId('tfa-state');
    await tfaState.waitFor({ timeout: 15_000 });
    expect(await tfaState.getAttribute('data-enabled')).toBe('false');

    // Turn on: the transaction password, then the key read off the page and a code from it.
    await page.getByTestId('tfa-turn-on').click();
    await page.getByTestId('trade-password').fill('123456');
    await page.getByTestId('submit').click();
    const secretEl = page.getByTestId('tfa-secret');
    await secretEl.waitFor({ timeout: 15_000 });
    const secret = (await secretEl.textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(
      await page.getByRole('img', { name: 'QR code for your authenticator app' }).count(),
    ).toBe(1);
    const app = authenticator(secret);
    await page.getByTestId('tfa-code').fill(await app.next());
    await page.getByTestId('submit').click();

    // The ten recovery codes, shown once, with the warning to save them.
    const codeList = page.getByTestId('recovery-codes');
    await codeList.waitFor({ timeout: 15_000 });
    expect(await codeList.locator('li').count()).toBe(10);
    const recovery = (await codeList.locator('li').allInnerTexts()).map((c) => c.trim());
    expect(recovery[0]).toMatch(/^[A-Z2-9]{5}-?[A-Z2-9]{5}$/);
    await page.getByTestId('recovery-done').click();
    await expect
      .poll(() => tfaState.getAttribute('data-enabled'), { timeout: 15_000 })
      .toBe('true');
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );

    // A second device, with no device token: the password is right, then the code is asked
    // (each time step's code is taken once: the authenticator gives the next step's).
    const second = await phonePage(e2e.browser, { locale: 'en' });
    await signIn(second.page, e2e.app.url, user, () => app.next());
    expect(await meStatus(second.page)).toBe(200);

    // The first device lists both sessions (this one marked) and signs the second out.
    await page.reload();
    const sessions = page.locator('[data-testid^="session-"][data-current]');
    await expect.poll(() => sessions.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(await page.locator('[data-current="true"]').count()).toBe(1);
    expect(await page.getByTestId('session-current').innerText()).toBe('This device');
    // A session's id is the start of its token's hash: the second device's, from its token.
    const secondToken = JSON.parse((await stored(second.page, 'token')) ?? 'null') as string;
    const otherId = createHash('sha256').update(secondToken).digest('hex').slice(0, 12);
    const other = page.getByTestId(`session-${otherId}`);
    expect(await other.getAttribute('data-current')).toBe('false');
    expect(await other.innerText()).toMatch(/Last active/);
    await page.getByTestId(`session-end-${otherId}`).click();
    await page.getByTestId(`session-${otherId}`).waitFor({ state: 'detached', timeout: 15_000 });

    // The second device's next call is refused, and its personal pages lead to sign-in.
    await expect.poll(() => meStatus(second.page), { timeout: 15_000 }).toBe(401);
    await second.page.goto(`${e2e.app.url}/#/pages/user/user`);
    await second.page.waitForURL(/#\/pages\/login\/login/, { timeout: 15_000 });
    // The first device is still signed in.
    expect(await meStatus(page)).toBe(200);
    await second.context.close();

    // Linking a coin address: the code field is there and must be filled; a wrong code is
    // refused on it; the next step's code links it.
    await open(page, '/pages/account/account?bind=coin');
    await page.getByTestId('network').selectOption('TRC20');
    await page.getByTestId('address').fill('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7');
    await page.getByTestId('trade-password').fill('123456');
    const code = page.getByTestId('tfa-code');
    await code.waitFor();
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    await page.getByTestId('submit').click();
    await expect
      .poll(() => text(page, 'tfa-code-error'))
      .toBe('Enter the code from your authenticator app.');
    await code.fill('12345');
    expect(await text(page, 'tfa-code-error')).toBe(
      'That code is wrong or was used already. Enter a new code.',
    );
    await code.fill(await app.next());
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/account\/account$/);
    const token = JSON.parse((await stored(page, 'token')) ?? 'null') as string;
    const [bound] = await api<WithdrawalAccount[]>('/api/withdrawal-accounts', {}, token);
    expect(bound).toBeDefined();
    const id = bound!.id;
    expect(bound!.usableAt - bound!.createdAt).toBe(24 * HOUR);

    // The accounts page: the hold's countdown, on the server's clock, ticking.
    const hold = `account-hold-${id}`;
    await expect
      .poll(() => text(page, hold))
      .toMatch(/^Usable for withdrawals in (24:00:00|23:59:\d\d)$/);
    const shown = await text(page, hold);
    await expect.poll(() => text(page, hold), { timeout: 5_000 }).not.toBe(shown);

    // The withdraw page: the rule in one sentence, the countdown, the account not chosen for the
    // user, and a withdrawal to it refused with the reason under the accounts (before its code is
    // read: the recovery code it carried stays unused).
    await open(page, '/pages/withdraw-money/withdraw-money');
    await expect
      .poll(() => text(page, 'hold-rule'))
      .toBe(
        'A newly linked account receives withdrawals only after 24 hours, to protect your balance if someone else gets into your account.',
      );
    expect(await text(page, hold)).toMatch(/^Usable for withdrawals in 2[34]:\d\d:\d\d$/);
    expect(await page.getByTestId(`account-option-${id}`).isChecked()).toBe(false);
    await withdraw(page, id, '100', recovery[0]!.toLowerCase());
    await expect
      .poll(() => text(page, 'account-error'))
      .toBe('This withdrawal account is new: withdrawals to it open when its hold ends.');
    expect(page.url()).toMatch(/withdraw-money/);
    const none = await api<{ items: unknown[] }>('/api/withdrawals', {}, token);
    expect(none.items).toHaveLength(0);

    // A day and a minute later on the platform clock, the countdown on the open page ends by
    // itself (it follows the server's platform clock, not the socket's wall clock).
    const before = await api<TestClockState>('/api/test/clock');
    const after = await api<TestClockState>('/api/test/clock', {
      method: 'POST',
      body: JSON.stringify({ advanceMs: 24 * HOUR + 60_000 }),
    });
    expect(after.now - before.now).toBeGreaterThanOrEqual(24 * HOUR + 60_000);
    await expect.poll(() => page.getByTestId(hold).count(), { timeout: 10_000 }).toBe(0);

    // The same withdrawal goes through now: the code asked for, then the authenticator's.
    await withdraw(page, id, '100', '');
    await expect
      .poll(() => text(page, 'tfa-code-error'))
      .toBe('Enter the code from your authenticator app.');
    await page.getByTestId('tfa-code').fill(await app.next());
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/withdraw-list\/withdraw-list$/);
    const made = await api<{ items: { status: string }[] }>('/api/withdrawals', {}, token);
    expect(made.items).toHaveLength(1);
    expect(made.items[0]!.status).toBe('pending');

    // The recovery code the refused withdrawal carried, typed in lower case, takes another.
    await open(page, '/pages/withdraw-money/withdraw-money');
    await page.getByTestId('tfa-code').waitFor();
    await withdraw(page, id, '100', recovery[0]!.toLowerCase());
    await page.waitForURL(/#\/pages\/withdraw-list\/withdraw-list$/);
    // Polled: on CI the list read once came back with the first withdrawal only, though the page
    // had already moved on the second's 201 (not reproduced with the requests traced).
    await expect
      .poll(async () => (await api<{ items: unknown[] }>('/api/withdrawals', {}, token)).items, {
        timeout: 10_000,
      })
      .toHaveLength(2);

    expect(unexpected(first.errors)).toEqual([]);
    await first.context.close();
  }, 300_000);
});
