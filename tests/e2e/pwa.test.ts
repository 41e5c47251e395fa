import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { useAppAndBrowser } from '@tests/support/e2e';
import { registerOverApi } from '@tests/support/journey';

/**
 * Issue 11 (part): the installable app on the production build served by the embedded app.
 * Manifest and icons, the service worker (registration, control, versions, the offline shell),
 * light and dark themes, and a page chunk that fails to load.
 */
describe('installable app, themes and chunk errors (Chromium, embedded app)', () => {
  let serial = 0;

  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });

  const HOME = '/pages/index/index';
  /** A phone-sized page in a fresh context (its own cache, storage and service workers). */
  const phone = async (
    options: { colorScheme?: 'light' | 'dark'; serviceWorkers?: 'allow' | 'block' } = {},
  ): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'zh-CN',
      deviceScaleFactor: 1,
      hasTouch: true,
      colorScheme: options.colorScheme ?? 'light',
      serviceWorkers: options.serviceWorkers ?? 'allow',
    });
    return { context, page: await context.newPage() };
  };
  const livePrice = (page: Page) =>
    page
      .locator('[data-testid^="product-row-"] [data-testid="price"]')
      .filter({ hasText: /\d/ })
      .first()
      .waitFor({ timeout: 20_000 });
  // Page-side code as strings: this file is type-checked with Node types, without the DOM's.
  const dataTheme = (page: Page) =>
    page.evaluate<string | undefined>('document.documentElement.dataset.theme');
  const controllerUrl = (page: Page) =>
    page.evaluate<string | null>('navigator.serviceWorker.controller?.scriptURL ?? null');
  const cacheNames = (page: Page) => page.evaluate<string[]>('caches.keys()');
  const cachedUrls = (page: Page) =>
    page.evaluate<string[]>(`(async () => {
      const urls = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) urls.push(request.url);
      }
      return urls;
    })()`);

  /** The active worker's script URL, or a description of the registration after 20 s. */
  const activeWorker = (page: Page) =>
    page.evaluate<string>(`Promise.race([
      navigator.serviceWorker.ready.then((r) => r.active.scriptURL),
      new Promise((resolve) => setTimeout(resolve, 20000)).then(async () => {
        const r = await navigator.serviceWorker.getRegistration();
        return 'no active worker after 20 s: ' + JSON.stringify(r && {
          installing: r.installing?.state, waiting: r.waiting?.state, active: r.active?.state,
        });
      }),
    ])`);

  /** Registers through the API and logs in through the form. */
  const logIn = async (page: Page) => {
    const { account, password } = await registerOverApi(
      e2e.app,
      `pwa_${process.pid % 10_000}_${++serial}`,
      'first-pass-1',
    );
    await page.goto(`${e2e.app.url}/#/pages/login/login`);
    await page.getByTestId('account').fill(account);
    await page.getByTestId('password').fill(password);
    await page.getByTestId('submit').click();
    await page.waitForURL((url) => !url.hash.includes('/pages/login/'));
  };

  it('serves a valid manifest whose icons load, linked from index.html', async () => {
    const html = await (await fetch(e2e.app.url)).text();
    expect(html).toMatch(/<link rel="manifest" href="\/manifest\.webmanifest"/);
    const touchIcon = /<link rel="apple-touch-icon" href="([^"]+)"/.exec(html)?.[1];
    expect(touchIcon).toBeTruthy();

    const res = await fetch(`${e2e.app.url}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const manifest = JSON.parse(await res.text()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({
      name: expect.any(String),
      short_name: expect.any(String),
      start_url: './#/pages/index/index',
      display: 'standalone',
      theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
      background_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
    });
    const kinds = manifest.icons.map((i) => `${i.sizes} ${i.purpose}`).sort();
    expect(kinds).toEqual(['192x192 any', '192x192 maskable', '512x512 any', '512x512 maskable']);

    const icons = [
      ...manifest.icons.map((i) => ({ url: new URL(i.src, res.url).href, sizes: i.sizes })),
      { url: new URL(touchIcon!, e2e.app.url).href, sizes: '180x180' },
    ];
    for (const { url, sizes } of icons) {
      const icon = await fetch(url);
      expect(icon.status, url).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await icon.arrayBuffer());
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      // IHDR: width and height, big-endian, at bytes 16 and 20.
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`, url).toBe(sizes);
    }

    // The worker script is revalidated on every use; hashed assets stay immutable.
    const sw = await fetch(`${e2e.app.url}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    const entry = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    const asset = await fetch(new URL(entry!, e2e.app.url), {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
    // Sent compressed to a browser that takes gzip (a third of the bytes on a phone's network).
    expect(asset.headers.get('content-encoding')).toBe('gzip');

    // And the browser reads it as the page's manifest.
    const { context, page } = await phone();
    await page.goto(`${e2e.app.url}/#${HOME}`);
    const href = await page.evaluate<string>(`document.querySelector('link[rel="manifest"]').href`);
    expect(href).toBe(`${e2e.app.url}/manifest.webmanifest`);
    await context.close();
  }, 90_000);

  it('registers the service worker, which controls the page after reload, caches the shell and no API answer, and gives way to a new version', async () => {
    const { context, page } = await phone();
    await page.goto(`${e2e.app.url}/#${HOME}`);
    await livePrice(page);
    const scriptUrl = await activeWorker(page);
    expect(scriptUrl).toMatch(new RegExp(`^${e2e.app.url}/sw\\.js\\?v=\\w+$`));

    await page.reload();
    await livePrice(page);
    expect(await controllerUrl(page)).toBe(scriptUrl);

    const version = new URL(scriptUrl).searchParams.get('v');
    expect(await cacheNames(page)).toEqual([`trade-shell-${version}`]);
    const cached = await cachedUrls(page);
    expect(cached).toContain(`${e2e.app.url}/`);
    expect(cached).toContain(`${e2e.app.url}/manifest.webmanifest`);
    const entry = await page.evaluate<string>(
      `document.querySelector('script[type="module"]').src`,
    );
    expect(cached).toContain(entry);
    // The page and its prices did use the API and the socket; none of it is cached.
    expect(cached.filter((u) => /\/api\/|\/socket\.io\//.test(u))).toEqual([]);
    expect(
      cached.every((u) => u === `${e2e.app.url}/` || /\/(assets|icons)\/|\.webmanifest$/.test(u)),
    ).toBe(true);

    // A new build registers another version: it takes over at once and drops the old cache.
    await page.evaluate(`navigator.serviceWorker.register('/sw.js?v=next')`);
    await expect
      .poll(() => controllerUrl(page), { timeout: 15_000 })
      .toBe(`${e2e.app.url}/sw.js?v=next`);
    await expect.poll(() => cacheNames(page), { timeout: 15_000 }).toEqual(['trade-shell-next']);
    await context.close();
  }, 90_000);

  it('follows the system theme by default; settings switch it, and the choice persists across reload', async () => {
    const dark = await phone({ colorScheme: 'dark' });
    await dark.page.goto(`${e2e.app.url}/#${HOME}`);
    await livePrice(dark.page);
    expect(await dataTheme(dark.page)).toBe('dark');
    await dark.context.close();

    const { context, page } = await phone({ colorScheme: 'light' });
    await logIn(page);
    await page.goto(`${e2e.app.url}/#/pages/set/set`);
    const select = page.getByTestId('theme-select');
    await select.waitFor();
    expect(await dataTheme(page)).toBe('light');
    expect(await select.getAttribute('data-value')).toBe('system');
    await select.click();
    const options = await page.getByTestId('theme-select-dialog').locator('li').allInnerTexts();
    expect(options.map((o) => o.replace('✓', '').trim())).toEqual(['跟随系统', '浅色', '深色']);

    await page.getByTestId('theme-select-dark').click();
    expect(await dataTheme(page)).toBe('dark');
    expect(await page.evaluate(`localStorage.getItem('theme')`)).toBe('dark');
    const themeColor = `document.querySelector('meta[name="theme-color"]').content`;
    expect(await page.evaluate(themeColor)).toBe('#181d25');
    const background = `getComputedStyle(document.querySelector('.page-header')).backgroundColor`;
    expect(await page.evaluate(background)).toBe('rgb(24, 29, 37)');

    await page.reload();
    await select.waitFor();
    expect(await dataTheme(page)).toBe('dark');
    expect(await select.getAttribute('data-value')).toBe('dark');

    // Back to the system: the key goes, and the page follows the system as it changes.
    await select.click();
    await page.getByTestId('theme-select-system').click();
    expect(await page.evaluate(`localStorage.getItem('theme')`)).toBeNull();
    expect(await dataTheme(page)).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => dataTheme(page)).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => dataTheme(page)).toBe('light');
    // The build's CSS minifier may shorten #ffffff.
    expect(await page.evaluate(themeColor)).toMatch(/^#(fff|ffffff)$/);
    await context.close();
  }, 90_000);

  it('repaints the price chart when the theme changes', async () => {
    const { context, page } = await phone({ colorScheme: 'light' });
    await page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=BTCUSDT`);
    const chart = page.getByTestId('chart');
    await expect
      .poll(() => chart.getAttribute('data-bars').then(Number), { timeout: 20_000 })
      .toBeGreaterThan(0);
    // The chart's largest canvas is its pane; its corner pixel is the layout background.
    const corner = `(() => {
      const canvases = [...document.querySelectorAll('[data-testid="chart"] canvas')];
      const pane = canvases.sort((a, b) => b.width * b.height - a.width * a.height)[0];
      return [...pane.getContext('2d').getImageData(2, 2, 1, 1).data.slice(0, 3)].join(',');
    })()`;
    await expect.poll(() => page.evaluate<string>(corner)).toBe('255,255,255');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.evaluate<string>(corner)).toBe('24,29,37');
    await context.close();
  }, 90_000);

  it('shows the chunk error with Retry when a page chunk fails to load, and Retry loads it once the network is back', async () => {
    // No service worker here: Playwright's routing sees only what the page itself fetches.
    const { context, page } = await phone({ serviceWorkers: 'block' });
    let blocked = true;
    let attempts = 0;
    await page.route(/\/assets\/product-[\w-]+\.js$/, (route) => {
      attempts++;
      return blocked ? route.abort('internetdisconnected') : route.continue();
    });
    await page.goto(`${e2e.app.url}/#${HOME}`);
    await livePrice(page);
    await page.evaluate(`location.hash = '#/pages/product/product'`);
    const error = page.getByTestId('chunk-error');
    await error.waitFor();
    expect(await error.locator('p').innerText()).toBe('页面加载失败，请检查网络后重试。');
    const retry = page.getByTestId('chunk-retry');
    expect(await retry.innerText()).toBe('重试');
    // The chunk is asked for by its import and, where the build lists it, by a modulepreload
    // link too (both fail while offline), so each step counts fetches made, not a fixed number.
    const first = attempts;
    expect(first).toBeGreaterThanOrEqual(1);

    // Still offline: Retry tries again and fails again, with the same offer.
    await retry.click();
    await expect.poll(() => attempts).toBeGreaterThan(first);
    await error.waitFor();
    const second = attempts;

    blocked = false;
    await retry.click();
    await page.getByTestId('product-row-EURUSD').waitFor();
    expect(await error.count()).toBe(0);
    expect(attempts).toBeGreaterThan(second);
    await context.close();
  }, 90_000);

  it('offline: with the server stopped, a reload shows the cached shell and "network signal lost"', async () => {
    const { context, page } = await phone();
    await page.goto(`${e2e.app.url}/#${HOME}`);
    await livePrice(page);
    expect(await activeWorker(page)).toMatch(/\/sw\.js\?v=\w+$/);
    await expect.poll(() => controllerUrl(page), { timeout: 15_000 }).not.toBeNull();
    // Everything this page fetched from /assets/ (chunks, language files) reached the cache.
    const fetched = await page.evaluate<string[]>(
      `performance.getEntriesByType('resource').map((e) => e.name)
        .filter((u) => u.includes('/assets/') && !u.endsWith('.map'))`,
    );
    expect(fetched.length).toBeGreaterThan(3);
    await expect
      .poll(async () => {
        const cached = new Set(await cachedUrls(page));
        return fetched.filter((u) => !cached.has(u));
      })
      .toEqual([]);

    await e2e.app.stop();
    try {
      const response = await page.reload();
      expect(response?.fromServiceWorker()).toBe(true);
      const banner = page.getByTestId('network-lost');
      await banner.waitFor({ timeout: 15_000 });
      expect(await banner.innerText()).toContain('网络信号丢失');
      // The shell is the app, in its language, not the browser's offline page.
      expect(await page.locator('.tab-bar').count()).toBe(1);
      // The app's name (APP_NAME) from the app info kept on the phone.
      expect(await page.locator('h1').first().innerText()).toBe('Trade');
    } finally {
      await e2e.app.start();
    }
    await page.reload();
    await livePrice(page);
    expect(await page.getByTestId('network-lost').count()).toBe(0);
    await context.close();
  }, 90_000);
});
