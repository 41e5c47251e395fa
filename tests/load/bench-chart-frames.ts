/**
 * `npm run bench:chart`: the trade screen's frame times on a phone profile (390×844, the CPU
 * throttled 4× through the DevTools protocol), with the chart's indicators off and then with five
 * on (MA, EMA, Bollinger, RSI, MACD), on the embedded app with its live feed. For each it counts
 * the frames the page drew in 20 s and prints their intervals' percentiles: 16.7 ms is 60 fps;
 * a long frame is one over 50 ms. The first run is the baseline of the same page in the same
 * process. Prints the machine's load beside them: a busy machine makes every figure worse.
 * Not a test: nothing here passes or fails. Needs `npm run build` first.
 */
import os from 'node:os';
import type { Page } from 'playwright-core';
import { launchBrowser, startApp } from '../support/browser';

const SECONDS = 20;
const THROTTLE = 4;
const FIVE = ['ma', 'ema', 'boll', 'rsi', 'macd'] as const;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Frame intervals (ms) the page draws over `seconds`, measured in the page. */
async function frames(page: Page, seconds: number): Promise<number[]> {
  return page.evaluate(
    (ms) =>
      new Promise<number[]>((resolve) => {
        const out: number[] = [];
        let last = performance.now();
        const end = last + ms;
        const step = (now: number) => {
          out.push(now - last);
          last = now;
          if (now < end) requestAnimationFrame(step);
          else resolve(out);
        };
        requestAnimationFrame(step);
      }),
    seconds * 1000,
  );
}

function line(label: string, f: number[]): string {
  const s = [...f].sort((a, b) => a - b);
  const long = f.filter((x) => x > 50).length;
  return `${label.padEnd(28)} frames ${String(f.length).padStart(5)}  fps ${(f.length / SECONDS).toFixed(1).padStart(5)}  p50 ${pct(s, 50).toFixed(1)}  p95 ${pct(s, 95).toFixed(1)}  p99 ${pct(s, 99).toFixed(1)}  max ${s.at(-1)!.toFixed(1)} ms  long ${long}`;
}

async function main() {
  const app = await startApp();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      hasTouch: true,
      locale: 'en',
    });
    await context.addInitScript(`localStorage.setItem('i18nLang', 'en');`);
    // tsx names the functions it compiles with a helper the page does not have.
    await context.addInitScript('window.__name = (f) => f;');
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    await page.goto(`${app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
    await page.getByTestId('chart').waitFor();
    await page.waitForFunction(
      () =>
        /^[1-9]/.test(
          document.querySelector('[data-testid="chart"]')?.getAttribute('data-bars') ?? '',
        ),
      null,
      { timeout: 60_000 },
    );
    await page.getByTestId('interval-1m').click();
    const [l1, l5, l15] = os.loadavg().map((l) => l.toFixed(2));
    console.log(
      `trade screen, 390×844 at 3× pixels, CPU throttled ${THROTTLE}×, ${SECONDS} s each; load ${l1} ${l5} ${l15} on ${os.cpus().length} cores`,
    );
    const off = await frames(page, SECONDS);
    console.log(line('baseline: no indicators', off));
    for (const key of FIVE) await page.getByTestId(`indicator-${key}`).click();
    await page.waitForFunction(() =>
      (document.querySelector('[data-testid="chart"]')?.getAttribute('data-panes') ?? '').includes(
        'macd',
      ),
    );
    const on = await frames(page, SECONDS);
    console.log(line('five indicators on', on));
    const p = (f: number[]) =>
      pct(
        [...f].sort((a, b) => a - b),
        95,
      );
    console.log(`ratio p95 five / none: ${(p(on) / p(off)).toFixed(2)}×`);
    await context.close();
  } finally {
    await browser.close();
    await app.dispose();
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
