/// <reference lib="dom" />
/**
 * `npm run screenshots -- --set trading`: issue 18's review set. The detail page of BTCUSDT with
 * three open positions (two up, one down: lines, chips, expiry markers and the strip), and the
 * result sheet on Home after three orders settled at once, in zh-CN and English, light and dark,
 * at 390×844 and 360×780. Viewport shots (the ticket is docked to the screen's bottom), one
 * contact sheet per screen and width, and the layout problems found.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { Order } from '@shared/orders/model';
import type { HttpApi } from '@tests/support/api';
import { layoutProblems } from '@tests/support/page-checks';
import { appDrawn, seedRouteData, storageScript } from '@tests/support/route-visits';
import type { TestUser } from '@tests/support/wallet';

const variants = [
  { lang: 'zh-CN', theme: 'light' },
  { lang: 'zh-CN', theme: 'dark' },
  { lang: 'en', theme: 'light' },
  { lang: 'en', theme: 'dark' },
] as const;
const sizes = [
  { width: 390, height: 844 },
  { width: 360, height: 780 },
];

async function place(api: HttpApi, user: TestUser, body: object): Promise<Order> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await api.http.post('/api/orders').set(user.auth).send(body);
    if (res.status === 201) return res.body as Order;
    if (Date.now() > deadline) throw new Error(`order refused: ${res.status} ${res.text}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const still = '*,*::before,*::after{transition:none!important;animation:none!important}';

/** Takes the set; returns how many layout problems it found. */
export async function takeTradingSet(
  appUrl: string,
  browser: Browser,
  out: string,
): Promise<number> {
  const api: HttpApi = { http: request(appUrl) };
  const seed = await seedRouteData(appUrl);
  // The seed has one 5-minute up order on BTCUSDT: two more make three.
  await place(api, seed.trader, {
    productId: 'BTCUSDT',
    direction: 'down',
    amount: 25_000,
    duration: 300,
  });
  await place(api, seed.trader, {
    productId: 'BTCUSDT',
    direction: 'up',
    amount: 5_000,
    duration: 120,
  });

  let problems = 0;
  const pages: { page: Page; name: string; close: () => Promise<void> }[] = [];
  for (const { lang, theme } of variants)
    for (const size of sizes) {
      const context = await browser.newContext({
        viewport: size,
        locale: lang,
        colorScheme: theme,
        deviceScaleFactor: 1,
        hasTouch: true,
      });
      await context.addInitScript(storageScript(seed, 'trader', lang));
      await context.addInitScript('window.__name = (f) => f;');
      const page = await context.newPage();
      pages.push({ page, name: `${lang}-${theme}-${size.width}`, close: () => context.close() });
    }
  const shoot = async (page: Page, name: string, shot: string) => {
    await page.addStyleTag({ content: still });
    const file = path.join(out, shot, `${name}.png`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file });
    for (const problem of await layoutProblems(page)) {
      problems++;
      console.log(`  ${shot} ${name}: ${problem}`);
    }
  };

  console.log('the detail page with three positions…');
  for (const { page, name } of pages) {
    await page.goto(`${appUrl}/#/pages/Detail/Detail?id=BTCUSDT`);
    await page.locator(appDrawn).first().waitFor({ timeout: 60_000 });
    await page.locator('[data-testid^="position-item-"]').nth(2).waitFor({ timeout: 30_000 });
    await shoot(page, name, 'detail-positions');
  }

  console.log('three 30 s orders, then the result sheet on Home…');
  const settling = await Promise.all(
    (
      [
        ['BTCUSDT', 'up'],
        ['ETHUSDT', 'down'],
        ['XAUUSD', 'up'],
      ] as const
    ).map(([productId, direction]) =>
      place(api, seed.trader, { productId, direction, amount: 10_000, duration: 30 }),
    ),
  );
  for (const { page } of pages) {
    await page.goto(`${appUrl}/#/pages/index/index`);
    await page.locator(appDrawn).first().waitFor({ timeout: 60_000 });
  }
  const lastExpiry = Math.max(...settling.map((o) => o.expiresAt));
  // The results toast at the top, all three on it (they expire within a second of each other),
  // held by the pointer so it does not hide by itself before each page is shot.
  const toast = '[data-testid="result-toast"]';
  await Promise.all(
    pages.map(async ({ page }) => {
      await page.waitForFunction(
        (sel) => document.querySelector(sel)?.getAttribute('data-count') === '3',
        toast,
        { timeout: lastExpiry - Date.now() + 60_000 },
      );
      await page.hover(toast);
    }),
  );
  for (const { page, name } of pages) {
    await shoot(page, name, 'result-toast');
    // The results list, opened by a tap on the toast.
    await page.locator(`${toast} .result-toast__body`).click();
    await page.getByTestId('result-list').waitFor();
    await shoot(page, name, 'result-sheet');
  }
  for (const { close } of pages) await close();

  // Contact sheets: the four variants of one width side by side.
  const sheet = await browser.newPage({ viewport: { width: 4 * 406, height: 900 } });
  fs.mkdirSync(path.join(out, 'sheets'), { recursive: true });
  for (const shot of ['detail-positions', 'result-toast', 'result-sheet'])
    for (const { width } of sizes) {
      const cells = variants
        .map(({ lang, theme }) => {
          const file = path.join(out, shot, `${lang}-${theme}-${width}.png`);
          const data = fs.readFileSync(file).toString('base64');
          return `<figure><figcaption>${lang} · ${theme} · ${width}</figcaption><img src="data:image/png;base64,${data}"></figure>`;
        })
        .join('');
      await sheet.setContent(
        `<style>body{margin:0;display:flex;gap:16px;align-items:flex-start;font:14px sans-serif;background:#888}
         figure{margin:0;width:${width}px}figcaption{padding:4px;background:#222;color:#fff}img{display:block;width:${width}px}</style>
         <body>${cells}</body>`,
      );
      await sheet.screenshot({
        path: path.join(out, 'sheets', `${shot}-${width}.png`),
        fullPage: true,
      });
    }
  console.log(`${pages.length * 2} screenshots and 4 sheets in ${out}`);
  return problems;
}
