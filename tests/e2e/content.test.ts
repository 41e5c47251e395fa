import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { opsJson, registerOverApi, onePixelPng as tinyPng } from '@tests/support/journey';
import { defaultCatalogue } from '@sim/catalogue';

/** A 1×1 PNG, by its bytes. */

/**
 * Issue 9 journeys: a newcomer's Home with every section (seeded content, live prices), news and
 * the text pages; a pending deposit approved with the operator CLI raises the message badge on
 * Home without a reload, and reading the message lowers it.
 */
describe('content journeys (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });

  /** `npm run ops -- …` against this app (its data dir holds the operator token). */
  const ops = (...args: string[]) => opsJson<Record<string, unknown>>(e2e.app, ...args);
  const api = async (route: string, init: RequestInit = {}) => {
    const res = await fetch(`${e2e.app.url}/api${route}`, init);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
  const active = (page: Page) => page.getByTestId('banner').getAttribute('data-active');

  it("draws Home's header and tagline before its scripts, where the app then draws them", async () => {
    // index.html's first paint (client/src/app/home-shell.ts), in the reader's language and
    // theme, with the app's scripts held back; then the app's own render, which replaces it.
    const boxes = `(() => {
      const box = (s) => { const b = document.querySelector(s)?.getBoundingClientRect(); return b ? [b.x, b.y, b.width, b.height].map(Math.round).join(',') : null; };
      return { intro: box('.page-intro'), header: box('.page-header'), language: box('.language-select__button'),
        text: document.querySelector('.page-intro')?.textContent, theme: document.documentElement.dataset.theme,
        lang: document.documentElement.lang, busy: document.querySelector('#root > .boot')?.getAttribute('aria-busy') ?? null };
    })()`;
    for (const [locale, colorScheme] of [
      ['de-DE', 'dark'],
      ['ja-JP', 'light'],
    ] as const) {
      const { context, page, errors } = await phonePage(e2e.browser, { locale });
      await page.emulateMedia({ colorScheme });
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto(`${e2e.app.url}/#/pages/index/index`);
      const shell = await page.evaluate<Record<string, string | null>>(boxes);
      expect(shell.busy).toBe('true');
      expect(shell.theme).toBe(colorScheme);
      await page.unroute('**/assets/*.js');
      await page.reload();
      await page.getByTestId('language-button').waitFor();
      const drawn = await page.evaluate<Record<string, string | null>>(boxes);
      expect(drawn.busy).toBeNull(); // the app's render replaced the first paint
      expect({ ...shell, busy: null }).toEqual(drawn);
      expect(errors.filter((e) => !e.includes('ERR_FAILED'))).toEqual([]);
      await context.close();
    }
  });

  it('shows a newcomer every Home section with live prices, in the chosen language', async () => {
    const { page, errors } = await phonePage(e2e.browser);
    await page.goto(`${e2e.app.url}/#/pages/index/index`);

    // Banners: three, turning by themselves every 3 s.
    const banner = page.getByTestId('banner');
    await banner.waitFor();
    expect(await banner.innerText()).toContain('买涨或买跌');
    for (const i of [0, 1, 2]) await page.getByTestId(`banner-dot-${i}`).waitFor();
    expect(await page.getByTestId('banner-dot-3').count()).toBe(0);
    const first = await active(page);
    await expect.poll(() => active(page), { timeout: 5000 }).not.toBe(first);

    // Shortcuts, the online service opened outside the app.
    for (const name of ['deposit', 'trade', 'orders', 'withdrawal', 'about', 'messages'])
      await page.getByTestId(`quick-${name}`).waitFor();
    expect(await page.getByTestId('quick-deposit').getAttribute('href')).toBe(
      '#/pages/recharge/recharge',
    );
    expect(await page.getByTestId('quick-withdrawal').getAttribute('href')).toBe(
      '#/pages/account/account',
    );
    const service = page.getByTestId('quick-service');
    expect(await service.getAttribute('href')).toBe('https://example.com/support');
    expect(await service.getAttribute('target')).toBe('_blank');
    expect(await service.getAttribute('rel')).toContain('noopener');
    expect(await page.getByTestId('messages-badge').count()).toBe(0);

    // Every product listed; live prices for those that trade around the clock (the others may
    // be closed, e.g. at the weekend, with no history in this short backfill).
    for (const p of defaultCatalogue) await page.getByTestId(`product-row-${p.id}`).waitFor();
    for (const p of defaultCatalogue.filter((c) => c.category === 'crypto'))
      await page
        .getByTestId(`product-row-${p.id}`)
        .getByTestId('price')
        .filter({ hasText: /\d/ })
        .waitFor({ timeout: 15_000 });
    const price = () => page.getByTestId('product-row-BTCUSDT').getByTestId('price').innerText();
    const p1 = await price();
    await expect.poll(price, { timeout: 15_000 }).not.toBe(p1);

    // Highlights, three seeded news items ("just now" under 15 minutes is not among them: the
    // newest is three hours old), the privacy link.
    expect(await page.getByTestId('highlights').locator('li').count()).toBe(4);
    const news = page.locator('[data-testid^="news-"]').filter({ has: page.locator('strong') });
    expect(await news.count()).toBe(3);
    expect(await news.first().innerText()).toMatch(/活期理财上线了[\s\S]*3小时前/);
    expect(await text(page, 'news-end')).toBe('没有更多了');
    expect(await page.getByTestId('privacy-link').getAttribute('href')).toBe('#/pages/yinsi/yinsi');

    // Swipe (pointer drag) turns the carousel; the drag does not follow the banner's link.
    await page.getByTestId('banner-play').click();
    await expect.poll(() => banner.getAttribute('data-playing')).toBe('false');
    await page.getByTestId('banner-dot-0').click();
    await expect.poll(() => active(page)).toBe('0');
    const box = (await banner.locator('.banner__viewport').boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width - 40, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 140, y, { steps: 6 });
    await page.mouse.up();
    await expect.poll(() => active(page)).toBe('1');
    expect(page.url()).toMatch(/#\/pages\/index\/index$/);

    // The language switch re-words the content, which the server holds per language.
    await page.getByTestId('language-button').first().click();
    await page.getByTestId('language-option-en').click();
    await expect.poll(() => banner.innerText()).toContain('Savings balance');
    await expect
      .poll(() => news.first().innerText())
      .toMatch(/The savings balance is here[\s\S]*3 hours ago/);
    expect(await page.getByTestId('quick-orders').innerText()).toBe('My orders');
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  it('opens a news item, and the privacy, second privacy and about pages', async () => {
    const { page, errors } = await phonePage(e2e.browser);
    await page.goto(`${e2e.app.url}/#/pages/index/index`);
    const item = page.locator('[data-testid^="news-"]').filter({ hasText: 'USDT' });
    await item.click();
    await page.waitForURL(/#\/pages\/index\/detail\?id=\d+$/);
    expect(await text(page, 'news-title')).toBe('支持 TRC20 和 ERC20 网络的 USDT 充值');
    expect(await text(page, 'news-body')).toContain('上传转账截图');

    for (const [route, title, body] of [
      ['/pages/yinsi/yinsi', '隐私政策', '我们收集的数据'],
      ['/pages/yinsi/gy', '隐私声明', '绝不出售'],
      ['/pages/aboutUs/aboutUs', '关于我们', '在线客服'],
    ] as const) {
      await page.goto(`${e2e.app.url}/#${route}`);
      await expect.poll(() => text(page, 'page-title')).toBe(title);
      expect(await text(page, 'page-body')).toContain(body);
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  it('raises the message badge live when the operator approves a deposit, and lowers it once read', async () => {
    const account = `content_${process.pid % 10_000}`;
    const password = 'content-pass-1';
    await registerOverApi(e2e.app, account, password);
    // Signed in over the API as the phone itself (its device token kept where the sign-in page
    // keeps it): a sign-in from a second device would add a security message to the badge.
    const first = (await (
      await fetch(`${e2e.app.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ account, password }),
      })
    ).json()) as { token: string; device: string };
    const token = first.token;
    const form = new FormData();
    for (const [k, v] of Object.entries({
      channel: 'bank',
      amount: '10000',
      payerBank: 'Bank of Tests',
      payerCard: '6222020012345678',
      payerName: 'Test Payer',
    }))
      form.append(k, v);
    form.append('screenshot', new Blob([tinyPng], { type: 'image/png' }), 'shot.png');
    const deposit = await api('/deposits', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    expect(deposit.body).toMatchObject({ status: 'pending' });

    // Signed in on a phone, on Home: no unread messages yet.
    const { page, errors } = await phonePage(e2e.browser);
    await page.addInitScript(
      ([key, device]) => localStorage.setItem(key!, device!),
      [`device:${account.toLowerCase()}`, first.device],
    );
    await page.goto(`${e2e.app.url}/#/pages/login/login`);
    await page.getByTestId('account').fill(account);
    await page.getByTestId('password').fill(password);
    await page.getByTestId('submit').click();
    await page.waitForURL(/#\/pages\/index\/index$/);
    await page.getByTestId('quick-messages').waitFor();
    const badge = page.getByTestId('messages-badge');
    expect(await badge.count()).toBe(0);

    // The operator approves with the CLI: the badge rises without a reload.
    const approved = await ops('deposits', 'approve', deposit.body.id as string);
    expect(approved).toMatchObject({ status: 'approved' });
    await badge.waitFor({ timeout: 10_000 });
    expect(await badge.innerText()).toMatch(/^1/);

    // Reading the message lowers it.
    await page.getByTestId('quick-messages').click();
    await page.waitForURL(/#\/pages\/message\/message$/);
    const unreadMark = page.locator('[data-testid^="message-unread-"]');
    await unreadMark.waitFor();
    const id = (await unreadMark.getAttribute('data-testid'))!.replace('message-unread-', '');
    const message = page.getByTestId(`message-${id}`);
    expect(await message.innerText()).toContain('充值已到账');
    await message.click();
    expect(await page.locator(`#message-body-${id}`).innerText()).toContain(
      '您的充值 100.00 USDT 已审核通过',
    );
    await unreadMark.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: '返回' }).click();
    await page.waitForURL(/#\/pages\/index\/index$/);
    await page.getByTestId('quick-messages').waitFor();
    await expect.poll(() => badge.count()).toBe(0);

    // An operator broadcast reaches the open page too.
    await ops('messages', 'send', '--title', '系统维护通知', '--body', '今晚 02:00 维护一小时。');
    await badge.waitFor({ timeout: 10_000 });
    expect(await badge.innerText()).toMatch(/^1/);
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  it('publishes news with the CLI, per language', async () => {
    const zh = await ops(
      'news',
      'publish',
      '--lang',
      'zh-CN',
      '--title',
      '新品上线',
      '--body',
      '新产品。',
    );
    const en = await ops(
      'news',
      'publish',
      '--id',
      zh.id as string,
      '--lang',
      'en',
      '--title',
      'New product',
      '--body',
      'A new product.',
    );
    expect(en).toMatchObject({ id: zh.id, lang: 'en', title: 'New product' });
    const { page } = await phonePage(e2e.browser, { locale: 'de' });
    await page.goto(`${e2e.app.url}/#/pages/index/detail?id=${zh.id as string}`);
    // German has no text of its own: the zh-CN text is shown, marked as Chinese.
    expect(await text(page, 'news-title')).toBe('新品上线');
    expect(await page.locator('article').getAttribute('lang')).toBe('zh-CN');
    await page.close();
  }, 90_000);
});
