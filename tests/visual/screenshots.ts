/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * `npm run screenshots`: every route of the spec's table (the route suite's visits, with its
 * seeded trader and newcomer) at 390×844, as full-page PNGs per language and theme, plus one
 * contact sheet per route putting the variants side by side for review. Prints the layout
 * problems (text running off the screen or cut off) found in each language as it goes.
 *
 *   npm run screenshots -- [--variants zh-CN:light,zh-CN:dark,en:light,en:dark,de:light,th:light]
 *                          [--only <part of a route>] [--out artifacts/screenshots]
 *   npm run screenshots -- --set languages [--out artifacts/screenshots]
 *   npm run screenshots -- --set trading [--out artifacts/screenshots]
 *   npm run screenshots -- --set ops [--out artifacts/screenshots/ops]
 *
 * `--set languages` takes issue 24's review set instead (tests/visual/language-set.ts): the
 * ticket, the trading rules, the fund records with a won order, savings and the bank account
 * form in ko, ja, th, de and fr at 360 px, one sheet per screen. `--set trading` takes issue 18's:
 * the detail page with three open positions and the result sheet on Home, in zh-CN and English,
 * light and dark, at 390 and 360 px (tests/visual/trading-set.ts).
 *
 * `--set ops` takes the operator console's pages (tests/visual/ops-set.ts) at 1280×800 in English
 * and zh-CN, into artifacts/screenshots/ops/ unless told otherwise.
 *
 * Sheets hold four variants each (the first sheet of a route: zh-CN and English, both themes;
 * the second: German and Thai, the longest texts).
 *
 * Starts its own embedded app (PGlite, in-process bus) on a free port; needs /usr/bin/chromium.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser, startApp } from '@tests/support/browser';
import { repoRoot } from '@tests/support/processes';
import { layoutProblems } from '@tests/support/page-checks';
import { takeLanguageSet } from './language-set';
import { takeOpsSet } from './ops-set';
import { takeTradingSet } from './trading-set';
import {
  appDrawn,
  routeAppEnv,
  routeVisits,
  seedRouteData,
  storageScript,
  visitName,
  watchNetwork,
} from '@tests/support/route-visits';

const { values } = parseArgs({
  options: {
    variants: {
      type: 'string',
      default: 'zh-CN:light,zh-CN:dark,en:light,en:dark,de:light,th:light',
    },
    only: { type: 'string', default: '' },
    set: { type: 'string', default: 'routes' },
    out: { type: 'string', default: 'artifacts/screenshots' },
  },
});
const isTheme = (t: string): t is 'light' | 'dark' => t === 'light' || t === 'dark';
const variants = values.variants.split(',').map((v) => {
  const [lang = '', theme = 'light'] = v.split(':');
  if (!lang || !isTheme(theme)) throw new Error(`bad variant ${v}`);
  return { lang, theme };
});
const out = path.resolve(
  repoRoot,
  values.set === 'ops' && values.out === 'artifacts/screenshots'
    ? 'artifacts/screenshots/ops'
    : values.out,
);
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(path.join(out, 'sheets'), { recursive: true });

if (!['routes', 'languages', 'trading', 'ops'].includes(values.set))
  throw new Error(`--set is routes, languages, trading or ops, not ${values.set}`);
if (values.set === 'ops') {
  console.log('starting the embedded app and seeding the queues…');
  const [app, browser] = await Promise.all([startApp(), launchBrowser()]);
  let problems = 0;
  try {
    problems = await takeOpsSet(app, browser, out);
    console.log(`${problems} layout problems`);
  } finally {
    await browser.close();
    await app.dispose();
  }
  process.exit(problems > 0 ? 1 : 0);
}
if (values.set !== 'routes') {
  console.log('starting the embedded app and seeding a trader…');
  // The languages set shows the bank form a newcomer fills in: where withdrawals need a verified
  // identity, a newcomer is asked to verify first instead (DECISIONS.md, Privacy and names).
  const env =
    values.set === 'languages' ? { ...routeAppEnv, WITHDRAW_REQUIRES_KYC: 'false' } : routeAppEnv;
  const [app, browser] = await Promise.all([startApp(env), launchBrowser()]);
  let problems = 0;
  try {
    problems = await (values.set === 'languages' ? takeLanguageSet : takeTradingSet)(
      app.url,
      browser,
      out,
    );
    console.log(`${problems} layout problems`);
  } finally {
    await browser.close();
    await app.dispose();
  }
  process.exit(problems > 0 ? 1 : 0);
}

console.log('starting the embedded app and seeding a trader and a newcomer…');
const [app, browser] = await Promise.all([startApp(routeAppEnv), launchBrowser()]);
let problemCount = 0;
try {
  const seed = await seedRouteData(app.url);
  const visits = routeVisits(seed).filter((v) => v.path.includes(values.only));
  const total = visits.length * variants.length;
  let done = 0;
  for (const { lang, theme } of variants) {
    const contexts = new Map<string, Awaited<ReturnType<typeof browser.newContext>>>();
    const dir = path.join(out, `${lang}-${theme}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const visit of visits) {
      let context = contexts.get(visit.as);
      if (!context) {
        context = await browser.newContext({
          viewport: { width: 390, height: 844 },
          locale: lang,
          colorScheme: theme,
          deviceScaleFactor: 1,
          hasTouch: true,
        });
        await context.addInitScript(storageScript(seed, visit.as, lang));
        // tsx keeps function names with a helper that does not exist in the page.
        await context.addInitScript('window.__name = (f) => f;');
        contexts.set(visit.as, context);
      }
      const page = await context.newPage();
      const net = watchNetwork(page);
      await visit.prepare?.(app.url);
      await page.goto(`${app.url}/#${visit.path}`);
      await page.locator(appDrawn).first().waitFor();
      await net.settle().catch((err: unknown) => console.warn(`  ${visit.path}: ${String(err)}`));
      // The carousel and countdowns move: a still frame, and the same one every run.
      await page.addStyleTag({
        content: '*,*::before,*::after{transition:none!important;animation:none!important}',
      });
      await page.screenshot({ path: path.join(dir, `${visitName(visit)}.png`), fullPage: true });
      for (const problem of await layoutProblems(page)) {
        problemCount++;
        console.log(`  ${lang} ${theme} ${visit.as} ${visit.path}: ${problem}`);
      }
      await page.close();
      done++;
      if (done % 10 === 0 || done === total)
        process.stdout.write(`  ${done}/${total} screenshots (${lang}, ${theme})\n`);
    }
    for (const context of contexts.values()) await context.close();
  }

  // Sheets per route, four variants side by side, labelled, for looking at one by one.
  const perSheet = 4;
  const sheet = await browser.newPage({
    viewport: { width: 390 * perSheet + 16 * 3, height: 900 },
  });
  let sheets = 0;
  for (const visit of visits) {
    for (let i = 0; i < variants.length; i += perSheet) {
      const cells = variants
        .slice(i, i + perSheet)
        .map(({ lang, theme }) => {
          const file = path.join(out, `${lang}-${theme}`, `${visitName(visit)}.png`);
          const data = fs.readFileSync(file).toString('base64');
          return `<figure><figcaption>${lang} · ${theme}</figcaption><img src="data:image/png;base64,${data}"></figure>`;
        })
        .join('');
      await sheet.setContent(
        `<style>body{margin:0;display:flex;gap:16px;align-items:flex-start;font:14px sans-serif;background:#888}
         figure{margin:0;width:390px}figcaption{padding:4px;background:#222;color:#fff}img{display:block;width:390px}</style>
         <body>${cells}</body>`,
      );
      const name = `${visitName(visit)}-${i / perSheet + 1}.png`;
      await sheet.screenshot({ path: path.join(out, 'sheets', name), fullPage: true });
      sheets++;
    }
  }
  console.log(`\n${total} screenshots and ${sheets} sheets in ${path.relative(repoRoot, out)}`);
  console.log(`${problemCount} layout problems`);
} finally {
  await browser.close();
  await app.dispose();
}
process.exit(problemCount > 0 ? 1 : 0);
