/// <reference lib="dom" />
/**
 * Issue 37 items 5, 8 and 9: the screens a trader reported, in English at 390×844.
 *   tsx tests/visual/item-589-shots.ts <before|after> <out dir>
 */
import request from 'supertest';
import { launchBrowser, phonePage, startApp } from '@tests/support/browser';
import { OPERATOR_TOKEN, registerUser, type HttpApi } from '@tests/support/api';
import { TRADE_PASSWORD, postKyc, readyUser } from '@tests/support/wallet';
import type { Page } from 'playwright-core';

const [when = 'before', out = '/work/notes/shots'] = process.argv.slice(2);

async function order(api: HttpApi, auth: Record<string, string>, body: Record<string, unknown>) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await api.http
      .post('/api/orders')
      .set(auth)
      .send({ productId: 'BTCUSDT', direction: 'up', amount: 10_000, duration: 300, ...body });
    if (res.status === 201) return;
    if (Date.now() > deadline) throw new Error(`order refused: ${res.status} ${res.text}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function signedIn(page: Page, url: string, token: string, route: string) {
  await page.addInitScript(
    `if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded','1'); localStorage.setItem('i18nLang','en'); localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))}); }`,
  );
  await page.goto(`${url}/#${route}`);
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${out}/${name}-${when}.png`, fullPage: false });
const settle = (page: Page) => page.waitForTimeout(1500);

async function main() {
  const app = await startApp({ OPERATOR_TOKEN, SIM_BACKFILL_HOURS: '1' });
  const browser = await launchBrowser();
  try {
    const api: HttpApi = { http: request(app.url) };
    // Item 5: a newcomer with three open practice trades.
    const newcomer = await registerUser(api, 'newbie');
    for (let i = 0; i < 3; i++) await order(api, newcomer.auth, { mode: 'practice' });
    // Item 8: a verified trader with a pending withdrawal; a user whose check is pending.
    const trader = await readyUser(api, 1_000_000, 'trader');
    await api.http
      .post('/api/withdrawals')
      .set(trader.auth)
      .send({ accountId: trader.accountId, amount: 30_000, tradePassword: TRADE_PASSWORD })
      .expect(201);
    const waiting = await registerUser(api, 'waiting');
    await postKyc(api, waiting.auth).expect(201);
    await api.http
      .post('/api/withdrawal-accounts')
      .set(waiting.auth)
      .send({
        type: 'coin',
        network: 'TRC20',
        address: 'TXyZ7aBcDeFgHiJkLmNoPqRsTuVwXyZ123',
        tradePassword: TRADE_PASSWORD,
      })
      .expect(201);

    const visit = async (token: string, route: string) => {
      const { page, context } = await phonePage(browser, { locale: 'en' });
      await signedIn(page, app.url, token, route);
      await page.waitForSelector('#root > :not(.boot)');
      await settle(page);
      return { page, context };
    };
    let v = await visit(newcomer.token, '/pages/index/index');
    await shot(v.page, 'item-5');
    await v.context.close();
    v = await visit(newcomer.token, '/pages/user/user');
    await shot(v.page, 'item-5-user');
    await v.context.close();
    v = await visit(waiting.token, '/pages/withdraw-money/withdraw-money');
    await shot(v.page, 'item-8');
    await v.context.close();
    v = await visit(trader.token, '/pages/index/index');
    await shot(v.page, 'item-8-home');
    await v.context.close();
    // Item 9: a stake of 5, then 99 999 999, in the ticket; 5 in the withdrawal form.
    v = await visit(trader.token, '/pages/Detail/Detail?id=BTCUSDT');
    await v.page.getByTestId('amount').fill('5');
    await settle(v.page);
    await shot(v.page, 'item-9-ticket-min');
    await v.page.getByTestId('amount').fill('99999999');
    await settle(v.page);
    await shot(v.page, 'item-9-ticket-max');
    await v.context.close();
    v = await visit(trader.token, '/pages/withdraw-money/withdraw-money');
    await v.page.getByTestId('amount').fill('5');
    await v.page.getByTestId('amount').blur();
    await settle(v.page);
    await shot(v.page, 'item-9-withdraw');
    await v.context.close();
  } finally {
    await browser.close();
    await app.dispose();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
