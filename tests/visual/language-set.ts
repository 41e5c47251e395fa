/// <reference lib="dom" />
/**
 * `npm run screenshots -- --set languages`: the screens issue 24 reviews per language (ko, ja,
 * th, de, fr) at 360 px wide: the order ticket, the trading rules it links to, the fund records
 * with a won order, the savings page, and the bank withdrawal account form filled in the form
 * of the holder's country (an IBAN for de and fr, an account number for ja, ko and th, with the
 * branch for ja). One contact sheet per screen puts the languages side by side.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import type { Order } from '@shared/orders/model';
import { registerUser, type HttpApi } from '@tests/support/api';
import { layoutProblems } from '@tests/support/page-checks';
import {
  appDrawn,
  seedRouteData,
  storageScript,
  watchNetwork,
  type RouteSeed,
} from '@tests/support/route-visits';
import type { TestUser } from '@tests/support/wallet';

export const languageSetLangs = ['ko', 'ja', 'th', 'de', 'fr'];
const width = 360;

/** What each language's holder types: nationality, bank, branch where needed, the number. */
const bankForms: Record<
  string,
  { country: string; bank: string; branch?: string; number: string }
> = {
  ko: { country: 'KR', bank: '국민은행', number: '123456-01-234567' },
  ja: { country: 'JP', bank: '三菱UFJ銀行', branch: '渋谷支店', number: '1234567' },
  th: { country: 'TH', bank: 'ธนาคารกสิกรไทย', number: '123-4-56789-0' },
  de: { country: 'DE', bank: 'Commerzbank', number: 'DE89 3704 0044 0532 0130 00' },
  fr: { country: 'FR', bank: 'BNP Paribas', number: 'FR14 2004 1010 0505 0001 3M02 606' },
};
const holders: Record<string, string> = {
  ko: '김민준',
  ja: '山田 太郎',
  th: 'สมชาย ใจดี',
  de: 'Anna Schmidt',
  fr: 'Camille Martin',
};

interface Shot {
  name: string;
  as: 'trader' | 'newcomer';
  /** Brings the page to the state worth showing; the screenshot follows. */
  show(page: Page, url: string, lang: string): Promise<void>;
  /** The viewport only (a sheet over the page), not the whole page. */
  viewportOnly?: boolean;
}

/** Opens a route and waits for the app and its reads; a busy machine gets a second try. */
async function open(page: Page, url: string, route: string): Promise<void> {
  const net = watchNetwork(page);
  for (let attempt = 1; ; attempt++) {
    await page.goto(`${url}/#${route}`);
    try {
      await page.locator(appDrawn).first().waitFor({ timeout: 60_000 });
      break;
    } catch (err) {
      if (attempt === 2) throw err;
      console.warn(`  ${route}: the app did not draw, reloading`);
    }
  }
  await net.settle().catch((err: unknown) => console.warn(`  ${route}: ${String(err)}`));
}

const shots: Shot[] = [
  {
    name: 'ticket',
    as: 'trader',
    async show(page, url) {
      await open(page, url, '/pages/Detail/Detail?id=BTCUSDT');
      await page.getByTestId('duration-30').click();
      await page.getByTestId('amount').fill('100');
    },
  },
  {
    name: 'rules',
    as: 'trader',
    viewportOnly: true,
    async show(page, url) {
      await open(page, url, '/pages/Detail/Detail?id=BTCUSDT');
      await page.getByTestId('rules-link').click();
      await page.getByTestId('rules-body').waitFor();
    },
  },
  {
    name: 'fund-records',
    as: 'trader',
    async show(page, url) {
      await open(page, url, '/pages/money-record/money-record');
    },
  },
  {
    name: 'savings',
    as: 'trader',
    async show(page, url) {
      await open(page, url, '/pages/money/money');
    },
  },
  {
    name: 'bank-form',
    as: 'newcomer',
    async show(page, url, lang) {
      const f = bankForms[lang]!;
      await open(page, url, '/pages/account/account?bind=bank');
      await page.getByTestId('holder-name').fill(holders[lang]!);
      await page.getByTestId('nationality').click();
      await page.getByTestId(`country-${f.country}`).click();
      await page.getByTestId('bank-name').fill(f.bank);
      if (f.branch) await page.getByTestId('branch').fill(f.branch);
      await page.getByTestId('card-number').fill(f.number);
      await page.getByTestId('trade-password').fill('123456');
      await page.getByTestId('card-number').blur();
    },
  },
];

/**
 * Orders of 30 s, one up and one down at a time on two markets, until one has won: the outcome
 * is the market's, never chosen, so it takes as many rounds as it takes (a draw loses neither).
 */
async function seedWonOrder(api: HttpApi, user: TestUser): Promise<void> {
  for (let round = 1; round <= 10; round++) {
    const placed: string[] = [];
    for (const productId of ['BTCUSDT', 'ETHUSDT'])
      for (const direction of ['up', 'down']) {
        const res = await api.http
          .post('/api/orders')
          .set(user.auth)
          .send({ productId, direction, amount: 10_000, duration: 30 });
        if (res.status === 201) placed.push((res.body as Order).id);
      }
    const deadline = Date.now() + 90_000;
    const settled = new Map<string, Order['status']>();
    while (settled.size < placed.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      for (const id of placed) {
        const res = await api.http.get(`/api/orders/${id}`).set(user.auth);
        const status = (res.body as Order).status;
        if (status !== 'open') settled.set(id, status);
      }
    }
    const statuses = [...settled.values()];
    console.log(`  round ${round}: ${statuses.join(', ') || 'nothing settled'}`);
    if (statuses.includes('won')) return;
  }
  throw new Error('no order won in 10 rounds');
}

/** Takes the set; returns how many layout problems it found. */
export async function takeLanguageSet(
  appUrl: string,
  browser: Browser,
  out: string,
): Promise<number> {
  const api: HttpApi = { http: request(appUrl) };
  const seed: RouteSeed = await seedRouteData(appUrl);
  console.log('placing 30 s orders until one has won…');
  await seedWonOrder(api, seed.trader);
  let problems = 0;
  for (const lang of languageSetLangs) {
    const dir = path.join(out, lang);
    fs.mkdirSync(dir, { recursive: true });
    // A holder of this language's country, with nothing bound yet: the form is empty.
    const newcomer = await registerUser(api, `bank${lang.replace('-', '')}`);
    for (const shot of shots) {
      const context = await browser.newContext({
        viewport: { width, height: 780 },
        locale: lang,
        deviceScaleFactor: 1,
        hasTouch: true,
      });
      await context.addInitScript(storageScript({ ...seed, newcomer }, shot.as, lang));
      await context.addInitScript('window.__name = (f) => f;');
      const page = await context.newPage();
      await shot.show(page, appUrl, lang);
      await page.addStyleTag({
        content: '*,*::before,*::after{transition:none!important;animation:none!important}',
      });
      // Typing scrolled the page: back to the top. A full-page shot of a short viewport draws the
      // fixed header and tab bar mid-page, so the viewport grows to the page's height instead.
      await page.evaluate('document.activeElement?.blur(); window.scrollTo(0, 0)');
      if (!shot.viewportOnly) {
        const height = await page.evaluate<number>('document.documentElement.scrollHeight');
        await page.setViewportSize({ width, height: Math.max(780, height) });
      }
      await page.screenshot({ path: path.join(dir, `${shot.name}.png`) });
      for (const problem of await layoutProblems(page)) {
        problems++;
        console.log(`  ${lang} ${shot.name}: ${problem}`);
      }
      await context.close();
    }
    console.log(`  ${lang}: ${shots.length} screenshots`);
  }

  // One sheet per screen, the languages side by side.
  const sheet = await browser.newPage({
    viewport: { width: (width + 16) * languageSetLangs.length, height: 900 },
  });
  fs.mkdirSync(path.join(out, 'sheets'), { recursive: true });
  for (const shot of shots) {
    const cells = languageSetLangs
      .map((lang) => {
        const data = fs.readFileSync(path.join(out, lang, `${shot.name}.png`)).toString('base64');
        return `<figure><figcaption>${lang}</figcaption><img src="data:image/png;base64,${data}"></figure>`;
      })
      .join('');
    await sheet.setContent(
      `<style>body{margin:0;display:flex;gap:16px;align-items:flex-start;font:14px sans-serif;background:#888}
       figure{margin:0;width:${width}px}figcaption{padding:4px;background:#222;color:#fff}img{display:block;width:${width}px}</style>
       <body>${cells}</body>`,
    );
    await sheet.screenshot({ path: path.join(out, 'sheets', `${shot.name}.png`), fullPage: true });
  }
  console.log(
    `\n${shots.length * languageSetLangs.length} screenshots and ${shots.length} sheets in ${out}`,
  );
  return problems;
}
