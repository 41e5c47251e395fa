import fs from 'node:fs';
import path from 'node:path';
import { gradientPng as png } from '@tests/support/png';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { opsJson, registerOverApi } from '@tests/support/journey';

/** Width and height of a baseline or progressive JPEG, from its SOF marker. */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1]!;
    const length = bytes.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc3)
      return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  return null;
}

interface OpsKyc {
  id: string;
  userAccount: string;
  frontId: string;
  backId: string;
  idNumber: string;
  nationality: string;
}

/**
 * Issue 7 journeys: identity verification with two photos (one large, made smaller in the
 * browser), approved by the operator CLI (verified badge), or rejected with a reason and
 * submitted again; and the withdrawal rule that asks for it.
 */
describe('identity verification journeys (Chromium, embedded app)', () => {
  let serial = 0;

  // Withdrawals need a verified identity (the default).
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });

  const ops = (...args: string[]) => opsJson<unknown>(e2e.app, ...args);
  const pendingOf = async (account: string): Promise<OpsKyc> => {
    const list = (await ops('kyc', 'list', '--status', 'pending')) as { items: OpsKyc[] };
    const mine = list.items.find((k) => k.userAccount === account);
    expect(mine, `a pending check of ${account}`).toBeDefined();
    return mine!;
  };

  const register = async () =>
    (await registerOverApi(e2e.app, `kyc_${process.pid % 10_000}_${++serial}`, 'kyc-pass-1'))
      .account;

  const open = (page: Page, route: string) => page.goto(`${e2e.app.url}/#${route}`);
  const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
  const unexpected = (errors: string[]) =>
    errors.filter((e) => !/Failed to load resource: .* status of 4\d\d/.test(e));

  const logIn = async (page: Page, account: string) => {
    await open(page, '/pages/login/login');
    await page.getByTestId('account').fill(account);
    await page.getByTestId('password').fill('kyc-pass-1');
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/index\/index/);
  };

  const chooseCountry = async (page: Page, search: string, code: string) => {
    await page.getByTestId('kyc-nationality').click();
    await page.getByTestId('kyc-nationality-search').fill(search);
    await page.getByTestId(`country-${code}`).click();
    await page.getByTestId('kyc-nationality-dialog').waitFor({ state: 'detached' });
  };

  it('submits with two photos, shows verifying, and the approval shows the verified badge', async () => {
    const account = await register();
    const { page, context, errors } = await phonePage(e2e.browser, { locale: 'zh-CN' });
    page.setDefaultTimeout(10_000);
    await logIn(page, account);
    await page.getByRole('link', { name: '我的' }).click();
    expect(await text(page, 'kyc-badge')).toBe('未认证');
    await page.getByTestId('menu-verify').click();
    await page.waitForURL(/#\/pages\/verify\/verify$/);
    expect(await text(page, 'kyc-status')).toBe('未提交');

    // Everything missing: each field says what it needs, the photos "please upload ID photo".
    await page.getByTestId('submit').click();
    expect(await text(page, 'kyc-name-error')).toBe('请填写此项');
    expect(await text(page, 'kyc-nationality-error')).toBe('请填写此项');
    expect(await text(page, 'kyc-front-error')).toBe('请上传证件照片');
    expect(await text(page, 'kyc-back-error')).toBe('请上传证件照片');

    await page.getByTestId('kyc-name').fill('张三');
    await chooseCountry(page, '中国', 'CN');
    expect(await text(page, 'kyc-nationality')).toContain('中国');
    // China: 15 or 18 digits, the last may be X (typed in lower case, kept as X).
    await page.getByTestId('kyc-id-number').fill('1101051949123100');
    await page.getByTestId('kyc-name').click();
    await expect
      .poll(() => text(page, 'kyc-id-number-error'))
      .toBe('15 或 18 位数字（最后一位可以是 X）');
    await page.getByTestId('kyc-id-number').fill('11010519491231002x');
    expect(await page.getByTestId('kyc-id-number').inputValue()).toBe('11010519491231002X');
    await expect.poll(() => page.getByTestId('kyc-id-number-error').count()).toBe(0);

    // The front: a large picture (taken with the camera input), made smaller before upload;
    // the back from the album. Both previewed; the back replaced once.
    await page
      .getByTestId('kyc-front')
      .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: png(2400, 1500) });
    await page.getByTestId('kyc-front-preview').waitFor();
    await page
      .getByTestId('kyc-back-album')
      .setInputFiles({ name: 'old.png', mimeType: 'image/png', buffer: png(50, 50) });
    await page.getByTestId('kyc-back-preview').waitFor();
    await page
      .getByTestId('kyc-back-album')
      .setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: png(320, 200) });
    await expect
      .poll(() =>
        page.evaluate<number>(
          `document.querySelector('[data-testid="kyc-back-preview"]').naturalWidth`,
        ),
      )
      .toBe(320);
    expect(await page.getByTestId('kyc-front-error').count()).toBe(0);
    await page.getByTestId('submit').click();
    await expect.poll(() => text(page, 'kyc-status')).toBe('认证中');
    expect(await page.getByTestId('kyc-name').count()).toBe(0);

    // The operator sees the submission; the front arrived as a JPEG at most 1600 px wide.
    const check = await pendingOf(account);
    expect(check).toMatchObject({ idNumber: '11010519491231002X', nationality: 'CN' });
    const operatorToken = fs
      .readFileSync(path.join(e2e.app.dataDir, 'operator-token'), 'utf8')
      .trim();
    const front = await fetch(`${e2e.app.url}/api/uploads/${check.frontId}`, {
      headers: { Authorization: `Bearer ${operatorToken}` },
    });
    expect(front.headers.get('content-type')).toBe('image/jpeg');
    expect(jpegSize(Buffer.from(await front.arrayBuffer()))).toEqual({ width: 1600, height: 1000 });

    // Approved: the page follows live, and the personal centre shows the verified badge.
    await ops('kyc', 'approve', check.id);
    await expect.poll(() => text(page, 'kyc-status')).toBe('已认证');
    await page.getByRole('button', { name: '返回' }).click();
    await page.waitForURL(/#\/pages\/user\/user$/);
    await expect.poll(() => text(page, 'kyc-badge')).toBe('已认证');
    expect(await page.getByTestId('kyc-badge').getAttribute('class')).toContain('verified');
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  }, 180_000);

  it('a bank account waits for the verified identity, then is bound in its name only', async () => {
    const account = await register();
    const { page, context, errors } = await phonePage(e2e.browser, { locale: 'en' });
    page.setDefaultTimeout(10_000);
    await logIn(page, account);

    // Before verification: no form, a link to verification instead.
    await open(page, '/pages/account/account?bind=bank');
    expect(await text(page, 'bank-verify-first')).toContain('Please verify your identity first.');
    expect(await page.getByTestId('bank-form').count()).toBe(0);
    await page.getByTestId('bank-verify-first').getByTestId('kyc-link').click();
    await page.waitForURL(/#\/pages\/verify\/verify$/);

    // Verified (over the API, approved by the operator CLI).
    const token = await page.evaluate<string>('JSON.parse(localStorage.getItem("token"))');
    const form = new FormData();
    form.set('name', 'Jane Doe');
    form.set('nationality', 'DE');
    form.set('idNumber', 'L01X00T47');
    for (const side of ['front', 'back'])
      form.set(side, new Blob([new Uint8Array(png(60, 40))], { type: 'image/png' }), `${side}.png`);
    const submitted = await fetch(`${e2e.app.url}/api/kyc`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    expect(submitted.status).toBe(201);
    await ops('kyc', 'approve', (await pendingOf(account)).id);

    // The form now holds the verified name, read-only; the server takes no other.
    await open(page, '/pages/account/account?bind=bank');
    const holder = page.getByTestId('holder-name');
    await expect.poll(() => holder.inputValue()).toBe('Jane Doe');
    expect(await holder.getAttribute('readonly')).not.toBeNull();
    const other = await fetch(`${e2e.app.url}/api/withdrawal-accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        type: 'bank',
        holderName: 'John Doe',
        nationality: 'DE',
        bankName: 'Testbank',
        cardNumber: 'DE89 3704 0044 0532 0130 00',
        tradePassword: '123456',
      }),
    });
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe(
      'HOLDER_NAME_MISMATCH',
    );
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  }, 180_000);

  it('is rejected with a reason, submits again; the withdrawal page before that shows its state', async () => {
    const account = await register();
    const { page, context, errors } = await phonePage(e2e.browser, { locale: 'en' });
    page.setDefaultTimeout(10_000);
    await logIn(page, account);

    // Withdrawals need a verified identity: the page says so and links to verification.
    const token = await page.evaluate<string>('JSON.parse(localStorage.getItem("token"))');
    const bound = await fetch(`${e2e.app.url}/api/withdrawal-accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        type: 'coin',
        network: 'ERC20',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        tradePassword: '123456',
      }),
    });
    expect(bound.status).toBe(201);
    // Issue 37: no form to fill in vain, the identity's state instead.
    await open(page, '/pages/withdraw-money/withdraw-money');
    await page.getByTestId('withdraw-kyc').waitFor();
    expect(await page.getByTestId('withdraw-kyc').getAttribute('data-status')).toBe('none');
    expect(await text(page, 'withdraw-kyc-text')).toBe('Withdrawals need a verified identity.');
    expect(await page.getByTestId('amount').count()).toBe(0);
    await page.getByTestId('kyc-link').click();
    await page.waitForURL(/#\/pages\/verify\/verify$/);

    // Another nationality: 5-30 letters and digits.
    expect(await text(page, 'kyc-status')).toBe('Not submitted');
    await page.getByTestId('kyc-name').fill('Jane Doe');
    await chooseCountry(page, 'germ', 'DE');
    await page.getByTestId('kyc-id-number').fill('L01X00T47');
    await page.getByTestId('kyc-front').setInputFiles({
      name: 'front.png',
      mimeType: 'image/png',
      buffer: png(300, 190),
    });
    await page.getByTestId('kyc-back').setInputFiles({
      name: 'back.png',
      mimeType: 'image/png',
      buffer: png(300, 190),
    });
    await page.getByTestId('kyc-back-preview').waitFor();
    await page.getByTestId('submit').click();
    await expect.poll(() => text(page, 'kyc-status')).toBe('Verifying');

    const first = await pendingOf(account);
    await ops('kyc', 'reject', first.id, '--reason', 'The photo of the back is blurred');
    await expect.poll(() => text(page, 'kyc-status')).toBe('Rejected');
    expect(await text(page, 'kyc-reason')).toBe('Reason: The photo of the back is blurred');

    // Submit again, from an empty form.
    await page.getByTestId('kyc-name').fill('Jane Doe');
    await chooseCountry(page, 'de', 'DE');
    await page.getByTestId('kyc-id-number').fill('L01X00T47');
    await page.getByTestId('kyc-front-album').setInputFiles({
      name: 'front.png',
      mimeType: 'image/png',
      buffer: png(300, 190),
    });
    await page.getByTestId('kyc-back-album').setInputFiles({
      name: 'back-sharp.png',
      mimeType: 'image/png',
      buffer: png(310, 190),
    });
    await page.getByTestId('kyc-back-preview').waitFor();
    await page.getByTestId('submit').click();
    await expect.poll(() => text(page, 'kyc-status')).toBe('Verifying');
    expect(await page.getByTestId('kyc-reason').count()).toBe(0);
    const second = await pendingOf(account);
    expect(second.id).not.toBe(first.id);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  }, 180_000);
});
