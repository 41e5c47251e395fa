/**
 * Navigation start → first live price on Home (a product row's [data-testid=price] holding a
 * digit, at the next animation frame), in Chromium against the embedded app on localhost; median
 * of 5 cold loads, each in a fresh browser context (empty cache, no service worker). One warm-up
 * load first; it is shown, not counted. Every load is printed with the machine's load and the
 * app's CPU share during it.
 */
import type { Browser } from 'playwright-core';
import type { AppUnderTest } from '../../support/browser';
import { budgets, HOME, loadNow, median, spread, type Row } from './common';
import { cores, othersMeter } from './machine';
import { cpuMeter, percent } from './rest';

const LOADS = 5;

// Page-side code as a string: this file is type-checked with Node types, without the DOM's.
// The first product row whose price holds a digit; its time is taken at the next frame.
const watchFirstPrice = `(() => {
  const selector = '[data-testid^="product-row-"] [data-testid="price"]';
  const seen = () => [...document.querySelectorAll(selector)].some((el) => /\\d/.test(el.textContent || ''));
  const observer = new MutationObserver(() => {
    if (!seen()) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__firstPriceMs = performance.now(); });
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();`;

async function firstPriceMs(browser: Browser, app: AppUnderTest): Promise<number> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'zh-CN',
    deviceScaleFactor: 1,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  try {
    await context.addInitScript(watchFirstPrice);
    const page = await context.newPage();
    await page.goto(`${app.url}${HOME}`);
    // Polled from outside: the page's CSP forbids the eval that waitForFunction(string) uses.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const ms = await page.evaluate<number | null>('window.__firstPriceMs ?? null');
      if (ms !== null) return ms;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('no live price on Home within 30 s');
  } finally {
    await context.close();
  }
}

/**
 * One load, printed with the load average before it, the cores the rest of the machine used
 * during it and the app's CPU share during it.
 */
async function printedLoad(browser: Browser, app: AppUnderTest, label: string): Promise<number> {
  const load = loadNow();
  const appCpu = cpuMeter(app.proc.child.pid!);
  const others = othersMeter();
  const ms = await firstPriceMs(browser, app);
  console.log(
    `  ${label}: ${ms.toFixed(0)} ms (${load}, ${cores(others())}, app CPU ${percent(appCpu())})`,
  );
  return ms;
}

export async function firstLivePrice(app: AppUnderTest, browser: Browser): Promise<Row> {
  console.log('First live price on Home:');
  await printedLoad(browser, app, 'warm-up (not counted)');
  const samples: number[] = [];
  for (let i = 1; i <= LOADS; i++) samples.push(await printedLoad(browser, app, `cold load ${i}`));
  const ms = median(samples);
  const seconds = (n: number) => (n / 1000).toFixed(3);
  return {
    metric: `Navigation → first live price on Home (median of ${LOADS} cold loads; min–max)`,
    figure: `${seconds(ms)} s (${spread(samples, seconds)})`,
    budget: `≤ ${budgets.firstPriceMs / 1000} s`,
    mark: ms <= budgets.firstPriceMs ? 'pass' : 'FAIL',
  };
}
