/// <reference lib="dom" />
/**
 * `npm run screenshots -- --set ops`: every page of the operator console (/ops/) at 1280×800 in
 * English and zh-CN, into artifacts/screenshots/ops/, against an embedded app seeded with one of
 * each queue's items: a pending bank deposit with its screenshot, a pending withdrawal to a bank
 * card, and a pending identity check whose ID number another account has (the warning).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { generate } from 'otplib';
import type { AppUnderTest } from '@tests/support/browser';
import { logInOverApi, opsJson, registerOverApi } from '@tests/support/journey';
import { layoutProblems } from '@tests/support/page-checks';
import { gradientPng } from '@tests/support/png';

interface NewOperator {
  operator: { name: string };
  password: string;
  totpSecret: string;
}

const languages = ['en', 'zh-CN'] as const;

export async function takeOpsSet(app: AppUnderTest, browser: Browser, out: string) {
  const call = async <T>(route: string, token: string, body?: unknown, form?: FormData) => {
    const res = await fetch(`${app.url}${route}`, {
      method: body === undefined && !form ? 'GET' : 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${route}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const png = (w: number, h: number) => new Blob([new Uint8Array(gradientPng(w, h))]);

  const admin = await opsJson<NewOperator>(
    app,
    'operators',
    'create',
    '--name',
    'alice',
    '--role',
    'admin',
  );
  const session = await fetch(`${app.url}/api/ops/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: admin.operator.name,
      password: admin.password,
      code: await generate({ secret: admin.totpSecret }),
    }),
  });
  const { token, expiresAt } = (await session.json()) as { token: string; expiresAt: number };
  await call('/api/ops/operators', token, { name: 'bob_review', role: 'reviewer' });
  await call('/api/ops/operators', token, { name: 'carol_support', role: 'support' });

  const kyc = (name: string) => {
    const form = new FormData();
    form.append('name', name);
    form.append('idNumber', '11010519491231002X');
    form.append('nationality', 'CN');
    form.append('front', png(640, 400), 'front.png');
    form.append('back', png(640, 400), 'back.png');
    return form;
  };
  const deposit = (amount: number) => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      channel: 'bank',
      amount: String(amount),
      payerBank: 'China Merchants Bank',
      payerCard: '6222 0200 1234 5678',
      payerName: 'Wang Fang',
      remark: 'transfer ref 88231',
    }))
      form.append(k, v);
    form.append('screenshot', png(720, 1280), 'transfer.png');
    return form;
  };
  // A verified trader with money and a bank card asks for a withdrawal.
  const rich = await logInOverApi(app, await registerOverApi(app, 'zhang_san'));
  await call('/api/kyc', rich, undefined, kyc('Zhang San'));
  const checks = await call<{ items: { id: string }[] }>('/api/ops/kyc?status=pending', token);
  await call(`/api/ops/kyc/${checks.items[0]!.id}/approve`, token, {});
  const funded = await call<{ id: string }>('/api/deposits', rich, undefined, deposit(1_000_000));
  await call(`/api/ops/deposits/${funded.id}/approve`, token, {});
  const card = await call<{ id: string }>('/api/withdrawal-accounts', rich, {
    type: 'bank',
    holderName: 'Zhang San',
    nationality: 'CN',
    bankName: 'Bank of China',
    cardNumber: '6217 8500 0000 1234',
    tradePassword: '123456',
  });
  await call('/api/withdrawals', rich, {
    accountId: card.id,
    amount: 250_000,
    tradePassword: '123456',
    mode: 'real',
  });
  // Open real-money orders on both sides: the dashboard's exposure (long, so they stay open).
  const product = (await (await fetch(`${app.url}/api/market/products/BTCUSDT`)).json()) as {
    durations: { seconds: number; rate: string }[];
  };
  const rung = product.durations[product.durations.length - 1]!;
  for (const [direction, amount] of [
    ['up', 120_000],
    ['down', 45_000],
  ] as const) {
    const res = await fetch(`${app.url}/api/orders`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${rich}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': `ops-set-${direction}-${Date.now()}`,
      },
      body: JSON.stringify({
        productId: 'BTCUSDT',
        direction,
        amount,
        duration: rung.seconds,
        rate: rung.rate,
        mode: 'real',
      }),
    });
    if (!res.ok) console.log(`order not placed: ${res.status} ${await res.text()}`);
  }
  // Another account with the same ID number: the identity queue warns.
  const twin = await logInOverApi(app, await registerOverApi(app, 'li_si_2024'));
  await call('/api/kyc', twin, undefined, kyc('Li Si'));
  // A newcomer's first deposit.
  const newcomer = await logInOverApi(app, await registerOverApi(app, 'wang_fang'));
  await call('/api/deposits', newcomer, undefined, deposit(500_000));
  await call('/api/ops/users/1/freeze', token, { reason: 'chargeback under investigation' }).catch(
    () => undefined,
  );

  // Gold under maintenance until two hours from now: the Markets page's third state.
  await call('/api/ops/products/XAUUSD/maintenance', token, {
    on: true,
    opensAt: Date.now() + 2 * 3600_000,
  });

  fs.mkdirSync(out, { recursive: true });
  let problems = 0;
  for (const lang of languages) {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: lang,
      deviceScaleFactor: 1,
    });
    await context.addInitScript(`localStorage.setItem('ops.lang', ${JSON.stringify(lang)})`);
    // tsx names the functions handed to page.evaluate with a helper the page lacks.
    await context.addInitScript('window.__name = (f) => f;');
    const page = await context.newPage();
    const shoot = async (name: string) => {
      await page.waitForTimeout(300); // fonts and images settle; a picture, not an assertion
      const found = await layoutProblems(page);
      problems += found.length;
      for (const p of found) console.log(`  ${lang} ${name}: ${p}`);
      await page.screenshot({ path: path.join(out, `${name}-${lang}.png`) });
      console.log(`${name}-${lang}.png`);
    };
    await page.goto(`${app.url}/ops/`);
    await page.locator('.ops-signin form').waitFor();
    await shoot('signin');
    await page.evaluate((s) => sessionStorage.setItem('ops.session', JSON.stringify(s)), {
      token,
      name: 'alice',
      expiresAt,
    });
    await page.reload();
    const visit = async (hash: string, ready: string) => {
      await page.goto(`${app.url}/ops/#/${hash}`);
      await page
        .locator(ready)
        .first()
        .waitFor()
        .catch(async (err: unknown) => {
          await page.screenshot({ path: path.join(out, `failed-${hash}-${lang}.png`) });
          throw err;
        });
    };
    await visit('dashboard', '[data-testid=exposure-table]');
    await shoot('dashboard');
    await visit('markets', '[data-testid=market-row][data-status=maintenance]');
    await shoot('markets');
    await page.locator('[data-testid=market-row][data-id=BTCUSDT] button').click();
    await page.getByTestId('maintenance-dialog').waitFor();
    await shoot('markets-start');
    await page.keyboard.press('Escape');
    await visit('content', '[data-testid=message-form]');
    await page.locator('[data-testid=message-form] button[type=submit]').click();
    await page.locator('[data-testid=message-form] .ops-field-error').first().waitFor();
    await shoot('content');
    await visit('users', 'input[name=q]');
    await page.locator('input[name=q]').fill('zhang');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=users-table] tbody tr').first().waitFor();
    await shoot('users');
    await visit('users/1', '[data-testid=user-orders]');
    await shoot('user-profile');
    await visit('deposits', '[data-testid=deposit-screenshot]');
    await shoot('deposits');
    await visit('withdrawals', '[data-testid=queue-item]');
    await shoot('withdrawals');
    await visit('kyc', '[data-testid=kyc-back]');
    await shoot('kyc');
    await page.keyboard.press('r');
    await page.getByTestId('reason-dialog').waitFor();
    await shoot('kyc-reject');
    await page.keyboard.press('Escape');
    await visit('audit', '[data-testid=audit-table] tbody tr');
    await shoot('audit');
    await visit('audit/access', '[data-testid=access-table] tbody tr');
    await shoot('access');
    await visit('operators', '[data-testid=operators-table] tbody tr');
    await shoot('operators');
    await page.locator('.ops-filters input').fill(`dave_${lang.replace('-', '')}`);
    await page.locator('.ops-filters button[type=submit]').click();
    await page.getByTestId('new-secret').waitFor();
    await page.locator('.ops-secrets img').waitFor();
    await shoot('operators-created');
    // A tablet held upright: the list above the evidence.
    await page.setViewportSize({ width: 820, height: 1180 });
    await visit('deposits', '[data-testid=deposit-screenshot]');
    await shoot('tablet-deposits');
    await context.close();
  }
  return problems;
}
