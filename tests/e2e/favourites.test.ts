import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';
import { logInOverApi, registerOverApi } from '@tests/support/journey';

/**
 * Issue 18 (part): favourites are kept on the server: starred on the detail page, first and
 * starred on Home and the product list, the same on another device, after a logout and after a
 * restart of the app.
 */
describe('favourite products (Chromium, embedded app)', () => {
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '0' });

  const logIn = async (page: Page, account: string, password: string) => {
    await page.goto(`${e2e.app.url}/#/pages/login/login`);
    await page.getByTestId('account').fill(account);
    await page.getByTestId('password').fill(password);
    await page.getByTestId('submit').click();
    await page.waitForURL((url) => !url.hash.includes('/pages/login/'));
  };
  /** The product ids of a list page's rows, top to bottom, and which of them are starred. */
  const rows = (page: Page) =>
    page.locator('[data-testid^="product-row-"]').evaluateAll((links) =>
      links.map((l) => ({
        id: l.getAttribute('data-testid')!.replace('product-row-', ''),
        starred: l.querySelector('[data-testid="favourite-mark"]') !== null,
      })),
    );
  const firstRows = async (page: Page, route: string) => {
    await page.goto(`${e2e.app.url}/#${route}`);
    await page.getByTestId('product-row-BTCUSDT').waitFor();
    return (await rows(page)).slice(0, 3);
  };
  /**
   * The rows appear with the product list; the favourites arrive in their own request, which may
   * answer a moment later, so the order is polled until it settles (or the limit says it never did).
   */
  const expectFirstRows = async (
    page: Page,
    route: string,
    expected: { id: string; starred: boolean }[],
  ) => {
    await page.goto(`${e2e.app.url}/#${route}`);
    await page.getByTestId('product-row-BTCUSDT').waitFor();
    await expect
      .poll(async () => (await rows(page)).slice(0, 3), { timeout: 15_000 })
      .toEqual(expected);
  };
  const starredFirst = [
    { id: 'XAUUSD', starred: true },
    { id: 'EURUSD', starred: true },
    { id: 'BTCUSDT', starred: false },
  ];

  it('stars a product on one phone and finds it first on another, after a logout and a restart', async () => {
    const user = await registerOverApi(e2e.app, `fav_${process.pid % 10_000}`, 'fav-pass-1');

    // Phone A: star gold, then the euro, on their detail pages.
    const a = await phonePage(e2e.browser, { locale: 'en' });
    await logIn(a.page, user.account, user.password);
    for (const id of ['XAUUSD', 'EURUSD']) {
      await a.page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=${id}`);
      const star = a.page.getByTestId('favourite-toggle');
      expect(await star.getAttribute('aria-pressed')).toBe('false');
      expect(await star.getAttribute('aria-label')).toBe('Add to favourites');
      await star.click();
      await expect.poll(() => star.getAttribute('aria-pressed')).toBe('true');
      expect(await star.getAttribute('aria-label')).toBe('Remove from favourites');
    }
    // The server has both, in the order starred (the star waits for nothing: check the source).
    const token = await logInOverApi(e2e.app, user);
    await expect
      .poll(
        async () =>
          (await fetch(`${e2e.app.url}/api/me/favourites`, {
            headers: { Authorization: `Bearer ${token}` },
          }).then((r) => r.json())) as unknown,
      )
      .toEqual({ products: ['XAUUSD', 'EURUSD'] });
    await expectFirstRows(a.page, '/pages/index/index', starredFirst);
    await expectFirstRows(a.page, '/pages/product/product', starredFirst);

    // Phone B, another device of the same user: the same list.
    const b = await phonePage(e2e.browser, { locale: 'zh-CN' });
    await logIn(b.page, user.account, user.password);
    await expectFirstRows(b.page, '/pages/index/index', starredFirst);

    // Phone A signs out: a guest has no favourites; signing in again brings them back.
    await a.page.goto(`${e2e.app.url}/#/pages/user/user`);
    await a.page.getByTestId('logout').click();
    await a.page.getByTestId('confirm-ok').click();
    await a.page.waitForURL(/#\/pages\/login\/login/);
    const guest = await firstRows(a.page, '/pages/index/index');
    expect(guest.every((r) => !r.starred)).toBe(true);
    await logIn(a.page, user.account, user.password);
    await expectFirstRows(a.page, '/pages/index/index', starredFirst);

    // Nothing went wrong on either phone so far (the restart below makes their sockets complain).
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);

    // A restart of the app keeps them; unstarring on B moves the euro back.
    await e2e.app.stop();
    await e2e.app.start();
    await b.page.goto(`${e2e.app.url}/#/pages/Detail/Detail?id=EURUSD`);
    const star = b.page.getByTestId('favourite-toggle');
    await expect.poll(() => star.getAttribute('aria-pressed'), { timeout: 15_000 }).toBe('true');
    await star.click();
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('false');
    await expectFirstRows(b.page, '/pages/index/index', [
      { id: 'XAUUSD', starred: true },
      { id: 'BTCUSDT', starred: false },
      { id: 'ETHUSDT', starred: false },
    ]);
    await a.context.close();
    await b.context.close();
  }, 180_000);
});
