import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AppUnderTest } from './browser';
import { repoRoot } from './processes';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';
import type { Order } from '@shared/orders/model';
import type { Product } from '@shared/product';

const run = promisify(execFile);
let traders = 0;

/**
 * `npm run ops -- …args` against an app a browser journey started: the CLI finds the app by its
 * DATA_DIR (the generated operator token) and PORT, as an operator on that machine would.
 * Rejects when the CLI exits non-zero; `stderr` is what it wrote besides its answer.
 */
export function runOps(app: Pick<AppUnderTest, 'dataDir' | 'port'>, ...args: string[]) {
  return run(path.join(repoRoot, 'node_modules/.bin/tsx'), ['scripts/ops.ts', ...args], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: app.dataDir,
      PORT: String(app.port),
      OPERATOR_TOKEN: '',
      OPS_URL: '',
    },
  });
}

/** `runOps`, its JSON answer parsed. */
export async function opsJson<T = unknown>(
  app: Pick<AppUnderTest, 'dataDir' | 'port'>,
  ...args: string[]
): Promise<T> {
  return JSON.parse((await runOps(app, ...args)).stdout) as T;
}

/** What a journey's user signs in with; the trade password of every test user is 123456. */
export interface JourneyUser {
  account: string;
  password: string;
}

/**
 * Registers `account` with the invitation code WELCOME through the API, for journeys whose
 * subject is not registration. Throws unless the app answers 201.
 */
export async function registerOverApi(
  app: Pick<AppUnderTest, 'url'>,
  account: string,
  password = 'journey-pass-1',
): Promise<JourneyUser> {
  const res = await fetch(`${app.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      account,
      phone: '+8613800138000',
      inviteCode: 'WELCOME',
      password,
      passwordConfirm: password,
      tradePassword: '123456',
      tradePasswordConfirm: '123456',
      acceptTerms: DEFAULT_TERMS_VERSION,
    }),
  });
  if (res.status !== 201) throw new Error(`register ${account}: ${res.status} ${await res.text()}`);
  return { account, password };
}

/** Logs `user` in through the API; returns the session token. */
export async function logInOverApi(
  app: Pick<AppUnderTest, 'url'>,
  user: JourneyUser,
): Promise<string> {
  const res = await fetch(`${app.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (res.status !== 200)
    throw new Error(`log in ${user.account}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/**
 * A deposit a journey's user makes to fund the account: a bank transfer of `amount` minor units,
 * in whole currency units. (A USDT claim is checked on chain, and a journey's app has no node.)
 */
export type JourneyDeposit = { channel: 'bank'; amount: number };

/**
 * Funds a user the real way: a bank deposit with its transfer screenshot (`png`, the bytes of
 * one), approved by the operator CLI. Returns the deposit's id.
 */
export async function fundByDeposit(
  app: Pick<AppUnderTest, 'url' | 'dataDir' | 'port'>,
  token: string,
  deposit: JourneyDeposit,
  png: BlobPart,
): Promise<string> {
  const form = new FormData();
  form.append('channel', deposit.channel);
  form.append('amount', String(deposit.amount));
  form.append('payerBank', 'Bank of Tests');
  form.append('payerCard', '6222020012345678');
  form.append('payerName', 'Test Payer');
  form.append('screenshot', new Blob([png], { type: 'image/png' }), 'transfer.png');
  const res = await fetch(`${app.url}/api/deposits`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`deposit: ${res.status} ${await res.text()}`);
  const { id, status } = (await res.json()) as { id: string; status: string };
  if (status !== 'pending') throw new Error(`deposit ${id} is ${status}, not pending`);
  const cli = await runOps(app, 'deposits', 'approve', id);
  if (cli.stderr) throw new Error(`deposits approve ${id}: ${cli.stderr}`);
  return id;
}

/**
 * A real position of 10.00 up on `product` that stays open through a journey (the product's
 * longest duration), placed over the api with the rate it shows.
 */
export async function placeLongPosition(
  app: Pick<AppUnderTest, 'url'>,
  token: string,
  product: Pick<Product, 'id' | 'durations'>,
): Promise<Order> {
  const rung = product.durations.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  const res = await fetch(`${app.url}/api/orders`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      productId: product.id,
      direction: 'up',
      amount: 1_000,
      duration: rung.seconds,
      rate: rung.rate,
      mode: 'real',
    }),
  });
  if (res.status !== 201) throw new Error(`order: ${res.status} ${await res.text()}`);
  return (await res.json()) as Order;
}

/**
 * A new trader (account `<prefix>_<pid>_<time>_<n>`), signed in, with `amount` deposited the
 * real way (fundByDeposit); their session token.
 */
export async function fundedTrader(
  app: Pick<AppUnderTest, 'url' | 'dataDir' | 'port'>,
  prefix: string,
  amount = 500_000,
): Promise<string> {
  const account = `${prefix}_${process.pid % 10_000}_${Date.now() % 100_000}_${traders++}`;
  const token = await logInOverApi(app, await registerOverApi(app, account));
  await fundByDeposit(app, token, { channel: 'bank', amount }, onePixelPng);
  return token;
}

/** A 1×1 PNG: the smallest image a deposit screenshot or an ID photo can be. */
export const onePixelPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
