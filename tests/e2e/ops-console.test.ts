import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { generate } from 'otplib';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { logInOverApi, opsJson, registerOverApi } from '@tests/support/journey';
import { gradientPng } from '@tests/support/png';

interface NewOperator {
  operator: { id: string; name: string; role: string };
  password: string;
  totpSecret: string;
}

/**
 * The operator console (/ops/, issue 20) in a real browser: a reviewer signs in with a password
 * and a TOTP code, approves a deposit from the queue with the keyboard while the trader watches
 * the balance rise, a second reviewer's queue loses the item, and admin pages stay closed to a
 * reviewer.
 */
describe('operator console', () => {
  const contexts: BrowserContext[] = [];

  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });
  // Registered after the fixture, so it runs before the browser closes.
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
  });

  const signInOverApi = async (o: NewOperator): Promise<string> => {
    const res = await fetch(`${e2e.app.url}/api/ops/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: o.operator.name,
        password: o.password,
        code: await generate({ secret: o.totpSecret }),
      }),
    });
    if (res.status !== 200) throw new Error(`ops session: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { token: string }).token;
  };
  const createOperator = async (adminToken: string, name: string, role: string) => {
    const res = await fetch(`${e2e.app.url}/api/ops/operators`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ name, role }),
    });
    if (res.status !== 201) throw new Error(`create operator: ${res.status} ${await res.text()}`);
    return (await res.json()) as NewOperator;
  };
  const consolePage = async (locale = 'en'): Promise<{ page: Page; errors: string[] }> => {
    const context = await e2e.browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale,
      deviceScaleFactor: 1,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { page, errors };
  };
  const signInThroughConsole = async (page: Page, o: NewOperator) => {
    await page.goto(`${e2e.app.url}/ops/`);
    await page.getByLabel('Operator name').fill(o.operator.name);
    await page.getByLabel('Password').fill(o.password);
    await page.getByLabel('6-digit code').fill(await generate({ secret: o.totpSecret }));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('operator-name').waitFor();
  };
  /** A pending bank deposit of `amount` minor units with a 480×640 screenshot; its id. */
  const bankDeposit = async (token: string, amount: number): Promise<string> => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      channel: 'bank',
      amount: String(amount),
      payerBank: 'Bank of Tests',
      payerCard: '6222020012345678',
      payerName: 'Test Payer',
    }))
      form.append(k, v);
    form.append(
      'screenshot',
      new Blob([new Uint8Array(gradientPng(480, 640))], { type: 'image/png' }),
      'transfer.png',
    );
    const made = await fetch(`${e2e.app.url}/api/deposits`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    expect(made.status, await made.clone().text()).toBe(201);
    return ((await made.json()) as { id: string }).id;
  };
  const live = { timeout: 20_000 };

  it('serves the console at /ops/, and the trader page never references its code', async () => {
    const consoleHtml = await fetch(`${e2e.app.url}/ops/`);
    expect(consoleHtml.status).toBe(200);
    expect(consoleHtml.headers.get('cache-control')).toBe('no-cache');
    const html = await consoleHtml.text();
    expect(html).toMatch(/<div id="ops-root">/);
    expect(html).toMatch(/\/ops-assets\/ops-[\w-]+\.js/);
    // A deep link of the console is the same page (a hash router inside).
    expect(await (await fetch(`${e2e.app.url}/ops`)).text()).toBe(html);
    const trader = await (await fetch(`${e2e.app.url}/`)).text();
    expect(trader).toMatch(/\/assets\/index-/);
    expect(trader).not.toMatch(/ops-assets|\/ops[-/.]/);
    // The trader's service worker leaves the console alone.
    const sw = await (await fetch(`${e2e.app.url}/sw.js`)).text();
    expect(sw).toMatch(/url\.pathname\.startsWith\('\/ops'\)/);
  });

  let adminToken = '';
  const stamp = `${process.pid % 10_000}${Date.now() % 100_000}`;
  const adminSession = async () => {
    if (adminToken) return adminToken;
    const admin = await opsJson<NewOperator>(
      e2e.app,
      ...['operators', 'create', '--name', `admin${stamp}`, '--role', 'admin'],
    );
    adminToken = await signInOverApi(admin);
    return adminToken;
  };

  it('a reviewer approves a deposit with the keyboard: the trader sees it live, the other reviewer loses it', async () => {
    const adminToken = await adminSession();
    const first = await createOperator(adminToken, `rev1_${stamp}`, 'reviewer');
    const second = await createOperator(adminToken, `rev2_${stamp}`, 'reviewer');

    // The trader, with a pending bank deposit and a screenshot, watching the personal centre.
    const trader = await registerOverApi(e2e.app, `trader_${stamp}`);
    const traderToken = await logInOverApi(e2e.app, trader);
    const depositId = await bankDeposit(traderToken, 25_000);

    const phone = await phonePage(e2e.browser, { locale: 'en' });
    contexts.push(phone.context);
    await phone.context.addInitScript(
      `localStorage.setItem('token', ${JSON.stringify(JSON.stringify(traderToken))})`,
    );
    await phone.page.goto(`${e2e.app.url}/#/pages/user/user`);
    const balance = () => phone.page.getByTestId('available-balance').innerText();
    await expect.poll(balance, live).toBe('0.00');
    await phone.page.evaluate('window.__noReload = 1');

    // Two reviewers, each signed in through the console, on the deposit queue.
    const one = await consolePage();
    const two = await consolePage();
    await signInThroughConsole(one.page, first);
    await signInThroughConsole(two.page, second);
    for (const { page } of [one, two]) {
      // A reviewer's navigation holds the queues only.
      expect(await page.getByRole('navigation').getByRole('link').allInnerTexts()).toEqual([
        'Deposits',
        'Withdrawals',
        'Identity checks',
      ]);
      await page.getByRole('link', { name: 'Deposits' }).click();
      await page.locator(`[data-testid=queue-item][data-id="${depositId}"]`).waitFor();
    }

    // The screenshot is on screen, loaded with the operator's token.
    const shot = one.page.getByTestId('deposit-screenshot');
    await shot.waitFor();
    await expect
      .poll(
        () => shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        live,
      )
      .toBe(true);
    expect(await one.page.getByTestId('queue-deposits').innerText()).toMatch(/Test Payer/);

    // Selected, then approved with the keyboard (a).
    await one.page.locator(`[data-testid=queue-item][data-id="${depositId}"]`).click();
    await one.page.keyboard.press('a');
    await expect
      .poll(() => one.page.getByTestId('queue-notice').innerText(), live)
      .toMatch(/Approved/);

    // The trader's balance rises without a reload; the second reviewer's queue loses the item.
    await expect.poll(balance, live).toBe('250.00');
    expect(await phone.page.evaluate('window.__noReload')).toBe(1);
    await expect
      .poll(
        () => two.page.locator(`[data-testid=queue-item][data-id="${depositId}"]`).count(),
        live,
      )
      .toBe(0);
    expect(one.errors).toEqual([]);
    expect(two.errors).toEqual([]);

    // Deciding what someone else has just decided is news, not an error. The second console's
    // list is held stale (its refreshes fail) while an admin approves the next deposit.
    const nextId = await bankDeposit(traderToken, 10_000);
    const item = two.page.locator(`[data-testid=queue-item][data-id="${nextId}"]`);
    await item.waitFor();
    const queueReads = (url: URL) => url.pathname === '/api/ops/deposits';
    await two.page.route(queueReads, (route) => route.abort());
    const approved = await fetch(`${e2e.app.url}/api/ops/deposits/${nextId}/approve`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(approved.status).toBe(200);
    await item.click();
    await two.page.getByTestId('approve').click();
    await expect
      .poll(() => two.page.getByTestId('queue-notice').innerText(), live)
      .toMatch(/Already decided by someone else/);
    await two.page.unroute(queueReads);
    expect(await item.count()).toBe(0);
    await expect.poll(balance, live).toBe('350.00');

    // A reviewer's direct link to the audit log: not available; and the API says 403.
    await two.page.goto(`${e2e.app.url}/ops/#/audit`);
    await two.page.getByTestId('not-available').waitFor();
    expect(await two.page.getByTestId('not-available').innerText()).toMatch(
      /not available for your role/,
    );
    const status = await two.page.evaluate(async () => {
      const token = (JSON.parse(sessionStorage.getItem('ops.session')!) as { token: string }).token;
      return (await fetch('/api/ops/audit', { headers: { Authorization: `Bearer ${token}` } }))
        .status;
    });
    expect(status).toBe(403);
  });

  it('support finds a user, freezes them with a reason and ends their sessions; no queues in its navigation', async () => {
    const support = await createOperator(await adminSession(), `sup_${stamp}`, 'support');
    const user = await registerOverApi(e2e.app, `frozen_${stamp}`);
    await logInOverApi(e2e.app, user);
    const { page, errors } = await consolePage('zh-CN');
    await page.goto(`${e2e.app.url}/ops/`);
    await page.getByLabel('操作员名称').fill(support.operator.name);
    await page.getByLabel('密码').fill(support.password);
    await page.getByLabel('6 位验证码').fill(await generate({ secret: support.totpSecret }));
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByTestId('operator-name').waitFor();
    // Support's navigation: users only; it opens there.
    expect(await page.getByRole('navigation').getByRole('link').allInnerTexts()).toEqual(['用户']);
    await page.locator('input[name=q]').fill(user.account);
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: user.account }).click();
    await page.getByTestId('user-profile').waitFor();
    expect(await page.getByTestId('user-sessions').locator('tbody tr').count()).toBe(1);

    await page.getByRole('button', { name: '冻结', exact: true }).click();
    await page.getByTestId('reason-dialog').locator('textarea').fill('suspicious transfers');
    await page.getByTestId('reason-dialog').getByRole('button', { name: '冻结' }).click();
    await expect
      .poll(() => page.getByTestId('user-profile').innerText(), live)
      .toMatch(/已冻结 — suspicious transfers/);
    await page.getByRole('button', { name: '结束全部会话' }).click();
    await expect
      .poll(() => page.getByTestId('user-sessions').locator('tbody tr').count(), live)
      .toBe(0);
    // The user's own API calls now fail to sign in: frozen.
    const login = await fetch(`${e2e.app.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(user),
    });
    expect(login.status).toBe(403);

    // Signing out ends the session on the server too: its token no longer opens anything.
    const token = await page.evaluate(
      () => (JSON.parse(sessionStorage.getItem('ops.session')!) as { token: string }).token,
    );
    await page.getByRole('button', { name: '退出登录' }).click();
    await page.getByRole('button', { name: '登录', exact: true }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('ops.session'))).toBeNull();
    const me = await fetch(`${e2e.app.url}/api/ops/me`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(401);
    expect(errors).toEqual([]);
  });
});
