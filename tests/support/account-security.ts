import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AppUnderTest } from './browser';
import { runOps, type JourneyUser } from './journey';

/** TOTP's time step, as the server checks codes (two-factor.codes.ts). */
const STEP_MS = 30_000;

/**
 * An authenticator app for `secret`, as a journey uses it: `next()` is a code of a time step not
 * used yet. The server takes each step once and never one at or before the last it took (a code
 * used once is refused within its window), and a step one either side of its own: when the next
 * unused step is further ahead than that, `next()` waits for the wall clock to reach it (the
 * server checks codes on the wall clock; TEST_CLOCK's moves do not change it).
 */
export function authenticator(secret: string): { next: () => Promise<string> } {
  let last = -Infinity;
  const stepNow = () => Math.floor(Date.now() / STEP_MS);
  return {
    async next() {
      const step = Math.max(stepNow(), last + 1);
      while (step > stepNow() + 1)
        await new Promise((resolve) =>
          setTimeout(resolve, (stepNow() + 1) * STEP_MS - Date.now() + 50),
        );
      last = step;
      return generate({ secret, epoch: (step * STEP_MS) / 1000 });
    },
  };
}

/** A value this page keeps in local storage (JSON text), or null. */
export const stored = (page: Page, key: string) =>
  page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(key)})`);

/** What the app asks with this page's session: the status of GET /api/me. */
export const meStatus = (page: Page) =>
  page.evaluate<number>(`(async () => {
    const token = JSON.parse(localStorage.getItem('token') ?? 'null');
    const res = await fetch('/api/me', { headers: token ? { Authorization: 'Bearer ' + token } : {} });
    return res.status;
  })()`);

/** Signs in through the login page of `url` (the code asked for when `code` gives one). */
export async function signIn(
  page: Page,
  url: string,
  user: JourneyUser,
  code?: () => Promise<string>,
): Promise<void> {
  await page.goto(`${url}/#/pages/login/login`);
  await page.getByTestId('account').fill(user.account);
  await page.getByTestId('password').fill(user.password);
  await page.getByTestId('submit').click();
  if (code) {
    await page.getByTestId('login-code').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('login-code').getAttribute('autocomplete')).toBe('one-time-code');
    await page.getByTestId('login-code').fill(await code());
    await page.getByTestId('submit').click();
  }
  await page.waitForURL(/#\/pages\/index\/index/, { timeout: 15_000 });
}

/** An identity check (Jane Doe, `front`/`back` its photos) sent and approved by the operator CLI. */
export async function verifyIdentity(
  app: Pick<AppUnderTest, 'url' | 'dataDir' | 'port'>,
  token: string,
  account: string,
  photo: () => Blob,
): Promise<void> {
  const form = new FormData();
  form.set('name', 'Jane Doe');
  form.set('nationality', 'DE');
  form.set('idNumber', 'L01X00T47');
  for (const side of ['front', 'back']) form.set(side, photo(), `${side}.png`);
  const submitted = await fetch(`${app.url}/api/kyc`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(submitted.status).toBe(201);
  const { stdout } = await runOps(app, 'kyc', 'list', '--status', 'pending');
  const list = JSON.parse(stdout) as { items: { id: string; userAccount: string }[] };
  const mine = list.items.find((k) => k.userAccount === account);
  expect(mine, `a pending check of ${account}`).toBeDefined();
  await runOps(app, 'kyc', 'approve', mine!.id);
}

/** A bank deposit of `amount` minor units with its transfer screenshot, left under review: its id. */
export async function pendingBankDeposit(
  app: Pick<AppUnderTest, 'url'>,
  token: string,
  amount: number,
  screenshot: BlobPart,
): Promise<string> {
  const form = new FormData();
  form.append('channel', 'bank');
  form.append('amount', String(amount));
  form.append('payerBank', 'Bank of Tests');
  form.append('payerCard', '6222020012345678');
  form.append('payerName', 'Test Payer');
  form.append('screenshot', new Blob([screenshot], { type: 'image/png' }), 'transfer.png');
  const res = await fetch(`${app.url}/api/deposits`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The operator approves a deposit: it is credited (`deposits approve` of the ops CLI). */
export async function approveDeposit(
  app: Pick<AppUnderTest, 'dataDir' | 'port'>,
  id: string,
): Promise<void> {
  const cli = await runOps(app, 'deposits', 'approve', id);
  if (cli.stderr) throw new Error(`deposits approve ${id}: ${cli.stderr}`);
}
