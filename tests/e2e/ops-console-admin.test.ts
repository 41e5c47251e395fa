import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { generate } from 'otplib';
import { useAppAndBrowser } from '@tests/support/e2e';
import { logInOverApi, opsJson, registerOverApi } from '@tests/support/journey';
import { axeViolations } from '@tests/support/page-checks';

interface NewOperator {
  operator: { id: string; name: string; role: string };
  password: string;
  totpSecret: string;
}

/**
 * The console's admin pages in a real browser: Markets puts EURUSD into maintenance and takes it
 * out again (the public product API follows), Content sends a broadcast a trader then reads, and
 * a reviewer's navigation holds neither page.
 */
describe('operator console: Markets and Content', () => {
  const contexts: BrowserContext[] = [];
  const stamp = `${process.pid % 10_000}${Date.now() % 100_000}`;
  const live = { timeout: 30_000, interval: 250 };

  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });
  // Registered after the fixture, so it runs before the browser closes.
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
  });

  const consolePage = async (): Promise<{ page: Page; errors: string[] }> => {
    const context = await e2e.browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en',
      deviceScaleFactor: 1,
      // axe-core goes in as an inline script, which the console's CSP refuses.
      bypassCSP: true,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { page, errors };
  };
  const signIn = async (page: Page, o: NewOperator) => {
    await page.goto(`${e2e.app.url}/ops/`);
    await page.getByLabel('Operator name').fill(o.operator.name);
    await page.getByLabel('Password').fill(o.password);
    await page.getByLabel('6-digit code').fill(await generate({ secret: o.totpSecret }));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('operator-name').waitFor();
  };
  const navLinks = (page: Page) => page.getByRole('navigation').getByRole('link').allInnerTexts();
  const productStatus = async (id: string) =>
    ((await (await fetch(`${e2e.app.url}/api/market/products/${id}`)).json()) as { status: string })
      .status;

  it('an admin starts and ends maintenance on EURUSD from Markets', async () => {
    const admin = await opsJson<NewOperator>(
      e2e.app,
      ...['operators', 'create', '--name', `mk_admin${stamp}`, '--role', 'admin'],
    );
    const { page, errors } = await consolePage();
    await signIn(page, admin);
    expect(await navLinks(page)).toEqual(expect.arrayContaining(['Markets', 'Content']));
    await page.getByRole('navigation').getByRole('link', { name: 'Markets' }).click();
    const rows = page.locator('[data-testid=market-row]');
    await expect.poll(() => rows.count(), live).toBe(12);
    const before = await productStatus('EURUSD');
    expect(['open', 'closed']).toContain(before);
    const row = page.locator('[data-testid=market-row][data-id=EURUSD]');

    await row.getByRole('button', { name: 'Start maintenance' }).click();
    const dialog = page.getByTestId('maintenance-dialog');
    // An opening time in the past is refused in the dialog, before any call.
    await dialog.locator('input[type=datetime-local]').fill('2020-01-01T10:00');
    await dialog.getByRole('button', { name: 'Start maintenance' }).click();
    await expect
      .poll(() => dialog.getByRole('alert').innerText(), live)
      .toMatch(/must be in the future/);
    // Without an opening time: started.
    await dialog.locator('input[type=datetime-local]').fill('');
    await dialog.getByRole('button', { name: 'Start maintenance' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByTestId('markets-notice').innerText(), live)
      .toMatch(/Maintenance started on EURUSD/);
    await expect.poll(() => productStatus('EURUSD'), live).toBe('maintenance');
    await expect.poll(() => row.getAttribute('data-status'), live).toBe('maintenance');
    expect(await row.innerText()).toMatch(/Maintenance/);

    await row.getByRole('button', { name: 'End maintenance' }).click();
    await expect
      .poll(() => page.getByTestId('markets-notice').innerText(), live)
      .toMatch(/Maintenance ended on EURUSD/);
    await expect.poll(() => productStatus('EURUSD'), live).toBe(before);
    await expect.poll(() => row.getAttribute('data-status'), live).toBe(before);
    expect(errors).toEqual([]);
  });

  it('an admin sends a broadcast from Content, and a trader finds it among their messages', async () => {
    const trader = await registerOverApi(e2e.app, `reader_${stamp}`);
    const traderToken = await logInOverApi(e2e.app, trader);
    const admin = await opsJson<NewOperator>(
      e2e.app,
      ...['operators', 'create', '--name', `ct_admin${stamp}`, '--role', 'admin'],
    );
    const { page, errors } = await consolePage();
    await signIn(page, admin);
    await page.getByRole('navigation').getByRole('link', { name: 'Content' }).click();
    const form = page.getByTestId('message-form');

    // Validation errors by field: an empty title, a user id that is not a number.
    await form.getByLabel('User ID').fill('abc');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => form.innerText(), live).toMatch(/A user ID is a number/);
    expect(await form.innerText()).toMatch(/Required/);
    // An unknown user: the server's refusal, on the user id.
    await form.getByLabel('User ID').fill('987654321');
    await form.getByLabel('Title').fill('Hello');
    await form.getByLabel('Text').fill('One user only');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => form.innerText(), live).toMatch(/There is no user with this ID/);

    const title = `Maintenance window ${stamp}`;
    await form.getByLabel('User ID').fill('');
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Text').fill('Markets pause on Sunday from 02:00 to 03:00 UTC.');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => page.getByTestId('message-sent').innerText(), live)
      .toBe(`“${title}” is sent to every user.`);

    const inbox = async () => {
      const res = await fetch(`${e2e.app.url}/api/messages`, {
        headers: { Authorization: `Bearer ${traderToken}` },
      });
      const { items } = (await res.json()) as {
        items: { title: string; body: string; broadcast: boolean }[];
      };
      return items.find((m) => m.title === title) ?? null;
    };
    await expect.poll(inbox, live).toMatchObject({
      broadcast: true,
      body: 'Markets pause on Sunday from 02:00 to 03:00 UTC.',
    });

    // News in one of the ten languages: published, confirmed on the page.
    const news = page.getByTestId('news-form');
    await news.getByLabel('Language').selectOption('en');
    await news.getByLabel('Title').fill(`Sunday pause ${stamp}`);
    await news.getByLabel('Text').fill('Trading pauses for an hour on Sunday.');
    await news.getByRole('button', { name: 'Publish' }).click();
    await expect
      .poll(() => page.getByTestId('news-published').innerText(), live)
      .toMatch(new RegExp(`Sunday pause ${stamp}.*is published`));
    expect(errors).toEqual([]);
  });

  it("an admin edits a text page and a language's Home banners; readers see them", async () => {
    const admin = await opsJson<NewOperator>(
      e2e.app,
      ...['operators', 'create', '--name', `tx_admin${stamp}`, '--role', 'admin'],
    );
    const { page, errors } = await consolePage();
    await signIn(page, admin);
    await page.getByRole('navigation').getByRole('link', { name: 'Content' }).click();

    // The trading rules in German: the form reads what German readers see now.
    const pageForm = page.getByTestId('page-form');
    await pageForm.getByLabel('Page').selectOption('rules');
    await pageForm.getByLabel('Language').selectOption('de');
    const publicPage = async (slug: string, lang: string) =>
      (await (await fetch(`${e2e.app.url}/api/pages/${slug}?lang=${lang}`)).json()) as {
        lang: string;
        title: string;
        body: string;
      };
    const before = await publicPage('rules', 'de');
    await expect.poll(() => pageForm.getByLabel('Title').inputValue(), live).toBe(before.title);
    const title = `Handelsregeln ${stamp}`;
    await pageForm.getByLabel('Title').fill(title);
    await pageForm.getByLabel('Text').fill('## Zeiten\n\nDer Handel läuft rund um die Uhr.');
    await pageForm.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByTestId('page-saved').innerText(), live)
      .toBe(`“${title}” is saved in German.`);
    expect(await publicPage('rules', 'de')).toMatchObject({
      lang: 'de',
      title,
      body: '## Zeiten\n\nDer Handel läuft rund um die Uhr.',
    });

    // French banners: two rows edited into one, a malformed link refused in the form first.
    const banners = page.getByTestId('banners-form');
    await banners.getByLabel('Language').selectOption('fr');
    const rows = banners.getByTestId('banner-row');
    await expect.poll(() => rows.count(), live).toBeGreaterThan(0);
    while ((await rows.count()) > 1)
      await rows
        .last()
        .getByRole('button', { name: /^Remove banner/ })
        .click();
    const first = rows.first();
    await first.getByLabel('Title', { exact: true }).fill(`Dépôt en USDT ${stamp}`);
    await first.getByLabel('Subtitle').fill('Crédité après confirmation');
    await first.getByLabel(/^Link/).fill('not a route');
    await banners.getByRole('button', { name: 'Save the banners' }).click();
    await expect.poll(() => first.innerText(), live).toMatch(/An in-app route/);
    await first.getByLabel(/^Link/).fill('/pages/recharge/recharge');
    await first.getByLabel('Colour').selectOption('green');
    await banners.getByRole('button', { name: 'Save the banners' }).click();
    await expect
      .poll(() => page.getByTestId('banners-saved').innerText(), live)
      .toBe('1 banner is saved for French.');
    const home = (await (await fetch(`${e2e.app.url}/api/content/home?lang=fr`)).json()) as {
      banners: { title: string; subtitle: string; link: string | null; theme: string }[];
    };
    expect(home.banners).toEqual([
      expect.objectContaining({
        title: `Dépôt en USDT ${stamp}`,
        subtitle: 'Crédité après confirmation',
        link: '/pages/recharge/recharge',
        theme: 'green',
      }),
    ]);
    expect(errors).toEqual([]);
  });

  /**
   * Every page of the console, as an admin sees it: no serious axe violation, and no control
   * smaller than 44 px in height (the console is used on tablets too). The dashboard shows the
   * embedded process's live report: one gateway, its sockets counted.
   */
  it('every console page passes axe and keeps its controls at 44 px or more', async () => {
    const trader = await registerOverApi(e2e.app, `axe_${stamp}`);
    const admin = await opsJson<NewOperator>(
      e2e.app,
      ...['operators', 'create', '--name', `axe_admin${stamp}`, '--role', 'admin'],
    );
    const { page, errors } = await consolePage();
    await signIn(page, admin);
    const small = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('button, select, input, textarea, nav a')]
          .filter((el) => el.offsetParent !== null)
          .filter((el) => el.getBoundingClientRect().height < 44)
          .map(
            (el) =>
              `${el.tagName} "${(el.innerText || el.getAttribute('aria-label') || '').slice(0, 30)}" ${Math.round(el.getBoundingClientRect().height)}px`,
          ),
      );
    const pages: [string, string][] = [
      ['dashboard', 'live-figures'],
      ['deposits', 'queue-deposits'],
      ['withdrawals', 'queue-withdrawals'],
      ['kyc', 'queue-kyc'],
      ['users', 'users-table'],
      ['user', 'user-profile'],
      ['markets', 'markets-table'],
      ['content', 'banners-form'],
      ['audit', 'audit-table'],
      ['audit/access', 'access-table'],
      ['operators', 'operators-table'],
    ];
    const found: string[] = [];
    for (const [path, testId] of pages) {
      // The profile is reached from the search's result, as support reaches it.
      if (path === 'user') await page.getByRole('link', { name: trader.account }).click();
      else await page.goto(`${e2e.app.url}/ops/#/${path}`);
      if (path === 'users') {
        await page.getByRole('searchbox').or(page.locator('input[name=q]')).fill(trader.account);
        await page.getByRole('button', { name: 'Find' }).click();
      }
      await page.getByTestId(testId).waitFor();
      // The lists have answered (no "Loading…" left) before the page is judged.
      await expect.poll(() => page.getByText('Loading…').count(), live).toBe(0);
      found.push(...(await axeViolations(page)).map((v) => `${path}: ${v}`));
      found.push(...(await small()).map((v) => `${path}: ${v} under 44 px`));
    }
    expect(found).toEqual([]);
    await page.goto(`${e2e.app.url}/ops/#/dashboard`);
    await expect
      .poll(() => page.getByTestId('gateway-table').locator('tbody tr').count(), live)
      .toBe(1);
    expect(Number(await page.getByTestId('live-sockets').innerText())).toBeGreaterThanOrEqual(0);
    expect(errors).toEqual([]);
  });

  it("an admin disables a reviewer from Operators: the reviewer's open console signs out", async () => {
    const admin = await opsJson<NewOperator>(
      e2e.app,
      ...['operators', 'create', '--name', `op_admin${stamp}`, '--role', 'admin'],
    );
    const reviewer = await opsJson<NewOperator>(
      e2e.app,
      ...['operators', 'create', '--name', `op_rev${stamp}`, '--role', 'reviewer'],
    );
    const watched = await consolePage();
    await signIn(watched.page, reviewer);
    await watched.page.getByTestId('queue-deposits').waitFor();

    const { page, errors } = await consolePage();
    await signIn(page, admin);
    await page.getByRole('navigation').getByRole('link', { name: 'Operators' }).click();
    const row = page.locator(`[data-testid=operator-row][data-name=op_rev${stamp}]`);
    await expect.poll(() => row.locator('td').nth(4).innerText(), live).toBe('1');
    await row.getByRole('button', { name: 'Disable' }).click();
    const dialog = page.getByTestId('reason-dialog');
    await dialog.getByLabel('Reason (kept in the audit log)').fill('left the team');
    await dialog.getByRole('button', { name: 'Disable' }).click();
    await expect
      .poll(() => page.getByTestId('operators-notice').innerText(), live)
      .toBe(`op_rev${stamp} is disabled; their sessions have ended.`);
    await expect.poll(() => row.getAttribute('data-disabled'), live).toBe('true');
    expect(await row.locator('td').nth(4).innerText()).toBe('0');

    // The reviewer's next poll is refused (401): their console is back at the sign-in form.
    await watched.page.getByLabel('Operator name').waitFor({ timeout: 20_000 });
    const audit = await opsJson<{ items: { action: string; reason: string; operator: string }[] }>(
      e2e.app,
      ...['audit', 'list', '--target', `operator=${reviewer.operator.id}`],
    );
    expect(audit.items[0]).toMatchObject({
      action: 'POST /api/ops/operators/:id/disable',
      reason: 'left the team',
      operator: `op_admin${stamp}`,
    });
    expect(errors).toEqual([]);
  });

  it("a reviewer's navigation holds neither Markets nor Content, and a direct link is closed", async () => {
    const reviewer = await opsJson<NewOperator>(
      e2e.app,
      ...['operators', 'create', '--name', `mk_rev${stamp}`, '--role', 'reviewer'],
    );
    const { page } = await consolePage();
    await signIn(page, reviewer);
    expect(await navLinks(page)).toEqual(['Deposits', 'Withdrawals', 'Identity checks']);
    await page.goto(`${e2e.app.url}/ops/#/markets`);
    await page.getByTestId('not-available').waitFor();
    await page.goto(`${e2e.app.url}/ops/#/content`);
    await page.getByTestId('not-available').waitFor();
  });
});
