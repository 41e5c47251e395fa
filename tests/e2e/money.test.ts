import { gradientPng as png } from '@tests/support/png';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { startLocalChain, type LocalChain } from '@tests/support/chain';
import { opsJson, registerOverApi } from '@tests/support/journey';

/**
 * Issue 35, must-show 4 (and the money journeys of issue 5): a new user opens the USDT deposit,
 * sees an address of their own with its QR code, a transfer to it (sent by the test on a local
 * Ethereum node) shows up confirming, then credited, and the balance updates live, no reload;
 * a coin address is bound; a withdrawal is held, the operator rejects it, and the hold returns
 * with the reason shown. Also the bank card page.
 */
describe('money journeys (Chromium, embedded app)', () => {
  let chain: LocalChain;
  let serial = 0;
  const CONFIRMATIONS = 3;

  // The local node starts first (the app's env names it) and stops last, after the app.
  beforeAll(async () => {
    chain = await startLocalChain();
  }, 180_000);
  afterAll(async () => {
    await chain?.stop();
  });
  const e2e = useAppAndBrowser(async () => ({
    SIM_BACKFILL_HOURS: '1',
    WITHDRAW_REQUIRES_KYC: '0',
    // The embedded app runs the watcher when a node is configured.
    ETH_RPC_URL: chain.url,
    ETH_USDT_CONTRACT: chain.token,
    ERC20_CONFIRMATIONS: String(CONFIRMATIONS),
    ETH_START_BLOCK: String((await chain.head()) + 1),
    CHAIN_POLL_MS: '200',
  }));

  /** `npm run ops -- …` against this app (its data dir holds the operator token). */
  const ops = (...args: string[]) => opsJson<unknown>(e2e.app, ...args);

  const register = async () =>
    (await registerOverApi(e2e.app, `money_${process.pid % 10_000}_${++serial}`, 'money-pass-1'))
      .account;

  const open = (page: Page, route: string) => page.goto(`${e2e.app.url}/#${route}`);
  const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
  /** The id in the first `prefix<id>` test id on the page. */
  const firstId = async (page: Page, prefix: string) => {
    const el = page.locator(`[data-testid^="${prefix}"]`).first();
    await el.waitFor();
    return ((await el.getAttribute('data-testid')) ?? '').slice(prefix.length);
  };
  /** Console errors other than the browser's own line for an expected 4xx answer. */
  const unexpected = (errors: string[]) =>
    errors.filter((e) => !/Failed to load resource: .* status of 4\d\d/.test(e));

  const logIn = async (page: Page, account: string) => {
    await open(page, '/pages/login/login');
    await page.getByTestId('account').fill(account);
    await page.getByTestId('password').fill('money-pass-1');
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/index\/index/);
  };

  it('deposits USDT-ERC20 to the user’s own address, is credited live, binds a coin address, withdraws, and gets the hold back on rejection', async () => {
    const account = await register();
    const { context, page, errors } = await phonePage(e2e.browser, { locale: 'zh-CN' });
    page.setDefaultTimeout(10_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.app.url });
    await logIn(page, account);

    // The personal centre: figures at zero, and the deposit button.
    await page.getByRole('link', { name: '我的' }).click();
    await expect.poll(() => text(page, 'available-balance')).toBe('0.00');
    expect(await text(page, 'total-assets')).toBe('0.00');
    await page.getByTestId('deposit').click();

    // Choose a channel ("select a deposit channel" first): USDT goes straight to the address.
    await page.waitForURL(/#\/pages\/recharge\/recharge$/);
    await page.getByTestId('channel-usdt-erc20').waitFor();
    // "Next" is disabled, and says why, until a channel is chosen; each card says when it arrives.
    expect(await page.getByTestId('submit').isDisabled()).toBe(true);
    expect(await text(page, 'choose-hint')).toBe('请选择充值通道');
    expect(await text(page, 'arrival-usdt-trc20')).toBe('20 个网络确认后自动到账，约 5 分钟');
    await page.getByTestId('channel-usdt-erc20').check();
    await page.getByTestId('submit').click();
    await page.waitForURL(/recharge-usdt-erc20$/);

    // The user's own address, as text and as a QR code drawn on the client, with copy.
    const address = await text(page, 'deposit-address');
    expect(address).toMatch(/^0x[0-9a-f]{40}$/);
    const qr = page.getByTestId('address-qr');
    await expect.poll(() => qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(
      await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0);
    await page.getByTestId('copy-address').click();
    await expect.poll(() => text(page, 'toast')).toBe('复制成功');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(address);
    // The network warning is a callout; the copy button spans the card, 44 px tall at least.
    expect(await text(page, 'network-warning')).toContain('ERC20');
    expect(await text(page, 'deposit-confirmations-needed')).toBe(String(CONFIRMATIONS));
    const copy = (await page.getByTestId('copy-address').boundingBox())!;
    expect(copy.height).toBeGreaterThanOrEqual(44);
    // No form to fill: nothing has arrived yet.
    expect(await page.getByTestId('tx-id').count()).toBe(0);
    await page.getByTestId('incoming-empty').waitFor();
    expect(await text(page, 'deposit-balance')).toBe('0.00');
    await page.evaluate('window.__noReload = 1');

    // A transfer of 150.50 USDT to that address, on the chain: seen, confirming, then credited.
    await chain.pay(address, 150_500_000n);
    const depositId = await firstId(page, 'incoming-item-');
    await expect
      .poll(() => text(page, `incoming-progress-${depositId}`))
      .toMatch(new RegExp(`^确认中 [12]/${CONFIRMATIONS}$`));
    await chain.mine(CONFIRMATIONS);
    await expect
      .poll(() => page.getByTestId(`incoming-item-${depositId}`).getAttribute('data-status'))
      .toBe('approved');
    expect(await text(page, `incoming-status-${depositId}`)).toBe('已到账');
    await expect.poll(() => text(page, 'deposit-balance')).toBe('150.50');
    expect(await page.evaluate('window.__noReload')).toBe(1);

    // Deposit details: credited, with the transaction on the explorer.
    await open(page, '/pages/withdraw-list/withdraw-open');
    await expect.poll(() => text(page, `deposit-status-${depositId}`)).toBe('已到账');
    expect(await text(page, `deposit-amount-${depositId}`)).toBe('150.50 USDT');
    expect(await page.getByTestId(`deposit-explorer-${depositId}`).getAttribute('href')).toMatch(
      /^https:\/\/etherscan\.io\/tx\/0x[0-9a-f]{64}$/,
    );

    // A second tab on the personal centre and the fund records: the credit is there.
    const centre = await context.newPage();
    await open(centre, '/pages/user/user');
    await expect.poll(() => text(centre, 'available-balance')).toBe('150.50');
    expect(await text(centre, 'total-assets')).toBe('150.50');
    await open(page, '/pages/money-record/money-record');
    const depositRow = await firstId(page, 'ledger-row-');
    expect(await page.getByTestId(`ledger-row-${depositRow}`).innerText()).toMatch(/充值/);
    expect(await text(page, `ledger-amount-${depositRow}`)).toBe('+150.50');
    expect(await text(page, `ledger-balance-${depositRow}`)).toBe('余额 150.50');
    await centre.evaluate('window.__noReload = 1');

    // Withdraw without an account: "not yet bound", with the way to bind one.
    await open(page, '/pages/withdraw-money/withdraw-money');
    expect(await text(page, 'not-bound')).toBe('暂未绑定');
    await page.getByTestId('bind-account').click();
    await page.waitForURL(/#\/pages\/account\/account$/);
    await page.getByTestId('bind-coin').click();
    await page.waitForURL(/account\?bind=coin$/);
    await page.getByTestId('network').selectOption('TRC20');
    await page.getByTestId('address').fill('0x52908400098527886E0F7030069857D2E4169EE7');
    await page.getByTestId('submit').click();
    expect(await text(page, 'address-error')).toBe('TRC20 地址以 T 开头，后接 33 位字母和数字');
    const payout = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
    await page.getByTestId('address').fill(payout);
    // Where withdrawals go is confirmed with the transaction password: six digits, and the
    // right ones.
    await page.getByTestId('submit').click();
    expect(await text(page, 'trade-password-error')).toBe('请填写此项');
    await page.getByTestId('trade-password').fill('12a34');
    expect(await page.getByTestId('trade-password').inputValue()).toBe('1234');
    await page.getByTestId('trade-password').fill('654321');
    await page.getByTestId('submit').click();
    await expect.poll(() => text(page, 'trade-password-error')).toBe('交易密码错误。');
    await page.getByTestId('trade-password').fill('123456');
    await page.getByTestId('submit').click();
    await expect.poll(() => text(page, 'toast')).toBe('操作成功');
    await page.waitForURL(/#\/pages\/account\/account$/);
    const accountId = await firstId(page, 'account-');
    await expect.poll(() => page.getByTestId('bind-coin').count()).toBe(0);
    expect(await page.getByTestId(`account-${accountId}`).innerText()).toContain('TRC20');
    // Bound: changes go through customer service.
    expect(await page.getByTestId('change-coin').getAttribute('href')).toMatch(/^https?:/);
    await open(page, '/pages/account/account?bind=coin');
    expect(await text(page, 'bound-notice')).toContain('联系客服');
    await open(page, `/pages/account/account-detail?id=${accountId}`);
    expect(await text(page, 'detail-address')).toBe(payout);

    // Withdraw: a wrong transaction password first, then the right one.
    await open(page, '/pages/withdraw-money/withdraw-money');
    await page.getByTestId(`account-option-${accountId}`).check();
    await page.getByTestId('amount').fill('100');
    await page.getByTestId('trade-password').fill('654321');
    await page.getByTestId('submit').click();
    await expect.poll(() => text(page, 'trade-password-error')).toBe('交易密码错误。');
    await page.getByTestId('trade-password').fill('123456');
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/withdraw-list\/withdraw-list$/);
    expect(await text(page, 'toast')).toBe('提现：请耐心等待到账');
    const withdrawalId = await firstId(page, 'withdrawal-status-');
    expect(await text(page, `withdrawal-status-${withdrawalId}`)).toBe('审核中');
    // The amount is held at once: available drops, total assets keep it.
    await expect.poll(() => text(centre, 'available-balance')).toBe('50.50');
    expect(await text(centre, 'total-assets')).toBe('150.50');

    // The operator rejects: the hold returns, the record says failed with the reason, live.
    await page.evaluate('window.__noReload = 2');
    await ops('withdrawals', 'reject', withdrawalId, '--reason', '收款地址需核实');
    await expect.poll(() => text(page, `withdrawal-status-${withdrawalId}`)).toBe('失败');
    expect(await text(page, `withdrawal-reason-${withdrawalId}`)).toBe('原因：收款地址需核实');
    await expect.poll(() => text(centre, 'available-balance')).toBe('150.50');
    expect(await page.evaluate('window.__noReload')).toBe(2);

    // The fund records show the hold and its return.
    await open(page, '/pages/money-record/money-record');
    await page.locator('[data-type="withdraw_release"]').waitFor();
    expect(await page.locator('[data-type="withdraw_hold"]').innerText()).toContain('-100.00');
    expect(await page.locator('[data-type="withdraw_release"]').innerText()).toContain('+100.00');
    await page.getByTestId('ledger-list-end').getByText('没有更多了').waitFor();
    // The deposit still shows credited.
    await open(page, '/pages/withdraw-list/withdraw-open');
    await expect.poll(() => text(page, `deposit-status-${depositId}`)).toBe('已到账');
    expect(await ops('ledger', 'check')).toEqual({ ok: true, problems: [] });
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  }, 180_000);

  it('bank transfer deposit in English: copy buttons, whole numbers, and a rejection with its reason', async () => {
    const account = await register();
    const { context, page, errors } = await phonePage(e2e.browser, { locale: 'en' });
    page.setDefaultTimeout(10_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.app.url });
    await logIn(page, account);
    await open(page, '/pages/recharge/recharge');
    await page.getByTestId('channel-bank').check();
    await page.getByTestId('submit').click();
    await page.waitForURL(/transfer\?channel=bank$/);
    // Whole numbers only: the dot and cents are not taken.
    await page.getByTestId('amount').fill('5');
    await page.getByTestId('submit').click();
    expect(await text(page, 'amount-error')).toBe('Please enter another amount.');
    await page.getByTestId('amount').fill('200.75');
    expect(await page.getByTestId('amount').inputValue()).toBe('20075');
    await page.getByTestId('amount').fill('200');
    await page.getByTestId('submit').click();
    await page.waitForURL(/recharge-bank-card\?amount=20000$/);
    await expect.poll(() => page.getByTestId('amount').inputValue()).toBe('200');

    // Shown in groups of four; copied as the bare digits a bank app accepts.
    const card = await text(page, 'copy-card-number-value');
    expect(card).toMatch(/^\d{4}( \d{1,4})+$/);
    await page.getByTestId('copy-card-number').click();
    await expect.poll(() => text(page, 'toast')).toBe('Copied');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(
      card.replaceAll(' ', ''),
    );
    await page.getByTestId('copy-bank-name').click();
    await page.getByTestId('copy-holder-name').click();

    await page.getByTestId('submit').click();
    expect(await text(page, 'payer-bank-error')).toBe('Please fill in this field');
    expect(await text(page, 'screenshot-error')).toBe('Please upload the transfer screenshot');
    await page.getByTestId('payer-bank').fill('Bank of Tests');
    await page.getByTestId('payer-card').fill('6222 0200 1234 5678');
    await page.getByTestId('payer-name').fill('Test Payer');
    await page
      .getByTestId('screenshot')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: png(200, 300) });
    await page.getByTestId('screenshot-preview').waitFor();
    await page.getByTestId('remark').fill('x'.repeat(150));
    expect(await page.getByTestId('remark').inputValue()).toHaveLength(140);
    expect(await text(page, 'remark-count')).toBe('140/140');
    await page.getByTestId('submit').click();
    await page.waitForURL(/withdraw-open$/);
    const id = await firstId(page, 'deposit-status-');
    expect(await text(page, `deposit-status-${id}`)).toBe('Under review');
    expect(await text(page, `deposit-amount-${id}`)).toBe('200.00 USDT');

    // The owner sees their own screenshot (fetched with the session token).
    await page.getByRole('button', { name: 'View screenshot' }).click();
    await page.locator('img[data-testid^="upload-"]').waitFor();
    expect(
      await page.evaluate<number>(
        `document.querySelector('img[data-testid^="upload-"]').naturalWidth`,
      ),
    ).toBe(200);

    // A refusal moves no money; its system message brings the list up to date.
    await ops('deposits', 'reject', id, '--reason', 'Payment not received');
    await expect.poll(() => text(page, `deposit-status-${id}`)).toBe('Rejected');
    expect(await text(page, `deposit-reason-${id}`)).toBe('Reason: Payment not received');
    await page.getByTestId('deposit-list-end').getByText('No more').waitFor();
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  }, 180_000);

  it('binds a bank account in Japanese: the branch asked for Japan only, 7 digits, shown on the detail', async () => {
    const account = await register();
    const { context, page, errors } = await phonePage(e2e.browser, { locale: 'ja' });
    page.setDefaultTimeout(10_000);
    await logIn(page, account);
    await open(page, '/pages/account/account?bind=bank');
    await page.getByTestId('holder-name').fill('山田 太郎');
    await page.getByTestId('bank-name').fill('みずほ銀行');
    // A Korean holder gives bank and account number only.
    await page.getByTestId('nationality').click();
    await page.getByTestId('country-KR').click();
    await page.getByTestId('card-number').waitFor();
    expect(await page.getByTestId('branch').count()).toBe(0);
    // A Japanese holder names the branch too, and the number is 7 digits.
    await page.getByTestId('nationality').click();
    await page.getByTestId('country-JP').click();
    await page.getByTestId('branch').waitFor();
    await page.getByTestId('card-number').fill('123456');
    await page.getByTestId('trade-password').fill('123456');
    await page.getByTestId('submit').click();
    expect(await text(page, 'branch-error')).toBe('空欄にできません');
    expect(await text(page, 'card-number-error')).toBe('7桁の数字');
    await page.getByTestId('branch').fill('渋谷支店');
    await page.getByTestId('card-number').fill('1234567');
    await page.getByTestId('submit').click();
    const id = await firstId(page, 'account-');
    await page.getByTestId(`account-${id}`).click();
    expect(await text(page, 'detail-bank-name')).toBe('みずほ銀行');
    expect(await text(page, 'detail-branch')).toBe('渋谷支店');
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  }, 180_000);

  it('binds a French IBAN at 360 px: the number read back whole in groups of four, sent as typed', async () => {
    const account = await register();
    const { context, page, errors } = await phonePage(e2e.browser, { locale: 'fr' });
    page.setDefaultTimeout(10_000);
    await page.setViewportSize({ width: 360, height: 780 });
    await logIn(page, account);
    await open(page, '/pages/account/account?bind=bank');
    await page.getByTestId('holder-name').fill('Camille Martin');
    await page.getByTestId('nationality').click();
    await page.getByTestId('country-FR').click();
    await page.getByTestId('bank-name').fill('Société Générale');
    // 33 characters: more than the input shows at this width, so it scrolls inside it.
    const iban = 'FR76 3000 6000 0112 3456 7890 189';
    await page.getByTestId('card-number').pressSequentially(iban);
    const input = page.getByTestId('card-number');
    expect(
      await input.evaluate((el) => el.scrollWidth > el.clientWidth),
      'the IBAN overflows its input (else this test shows nothing)',
    ).toBe(true);
    // Below it, the whole number: every group, none cut off, within the screen.
    const readBack = page.getByTestId('card-number-read-back');
    await readBack.waitFor();
    expect(await readBack.innerText()).toBe('FR76 3000 6000 0112 3456 7890 189');
    const fits = await readBack.evaluate((el) => ({
      inside: el.scrollWidth <= el.clientWidth,
      right: el.getBoundingClientRect().right,
    }));
    expect(fits.inside).toBe(true);
    expect(fits.right).toBeLessThanOrEqual(360);
    // The input keeps what was typed, and that is what is sent.
    expect(await input.inputValue()).toBe(iban);
    await page.getByTestId('trade-password').fill('123456');
    const sent = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/api/withdrawal-accounts'),
    );
    await page.getByTestId('submit').click();
    expect(((await sent).postDataJSON() as { cardNumber: string }).cardNumber).toBe(iban);
    const id = await firstId(page, 'account-');
    await page.getByTestId(`account-${id}`).click();
    expect(await text(page, 'detail-card-number')).toBe('FR76 3000 6000 0112 3456 7890 189');
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  }, 180_000);
});
