import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { OPERATOR_TOKEN, registerUser, type HttpApi } from './api';
import type { memoryChains } from './memory-chain';

type MemoryChains = ReturnType<typeof memoryChains>;

/** Tiny real images (1×1 pixel), by their bytes: no fixture files. */
export const images = {
  png: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  // Written by sharp (1×1, white): the server decodes every upload, so each must be whole.
  jpeg: Buffer.from(
    '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAj/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKpAB//Z',
    'base64',
  ),
  webp: Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'),
  gif: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  svg: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
  ),
  text: Buffer.from('just some text pretending to be a picture\n'),
};

export const opsAuth = { Authorization: `Bearer ${OPERATOR_TOKEN}` };
export type TestUser = Awaited<ReturnType<typeof registerUser>>;
type Headers = Record<string, string>;

export const bankDepositFields = (amount: number | string) => ({
  channel: 'bank',
  amount: String(amount),
  payerBank: 'Bank of Tests',
  payerCard: '6222 0200 1234 5678',
  payerName: 'Test Payer',
});

/**
 * A fresh, well-formed transaction id of a USDT channel (unique per call) that no node knows: for
 * checks of the id's form, and for claims the node must answer 422 TX_NOT_FOUND.
 */
export function txIdFor(channel: 'usdt-trc20' | 'usdt-erc20'): string {
  const hex = randomBytes(32).toString('hex');
  return channel === 'usdt-trc20' ? hex : `0x${hex}`;
}

/**
 * The fields of a USDT claim of `quantity` minor units: a transfer of that many to the user's own
 * address is paid on the api's in-memory chain first, and the claim names its transaction.
 */
export async function usdtClaimFields(
  api: HttpApi & { chain: MemoryChains },
  headers: Headers,
  channel: 'usdt-trc20' | 'usdt-erc20',
  quantity: number,
): Promise<Record<string, string>> {
  const network = channel === 'usdt-trc20' ? 'TRC20' : 'ERC20';
  const channels = await api.http.get('/api/deposits/channels').set(headers).expect(200);
  const own = (channels.body as { channel: string; address: string }[]).find(
    (c) => c.channel === channel,
  )!.address;
  const txId = api.chain[network].pay(own, BigInt(quantity) * 10_000n);
  return { channel, txId };
}

/** POST /api/deposits as a multipart form; `screenshot: null` leaves the file out. */
export function postDeposit(
  api: HttpApi,
  headers: Headers,
  fields: Record<string, string>,
  screenshot: { bytes: Buffer; name?: string } | null = { bytes: images.png },
) {
  let req = api.http.post('/api/deposits').set(headers);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  if (screenshot) req = req.attach('screenshot', screenshot.bytes, screenshot.name ?? 'shot.png');
  return req;
}

/** A pending bank deposit of `amount` minor units; returns its id. */
export async function deposit(api: HttpApi, user: TestUser, amount: number): Promise<string> {
  const res = await postDeposit(api, user.auth, bankDepositFields(amount)).expect(201);
  return res.body.id as string;
}

/** Deposits and approves: the user's available balance grows by `amount`. */
export async function fund(api: HttpApi, user: TestUser, amount: number): Promise<void> {
  const id = await deposit(api, user, amount);
  await api.http.post(`/api/ops/deposits/${id}/approve`).set(opsAuth).expect(200);
}

/** POST /api/kyc; `null` leaves that photo out. */
export function postKyc(
  api: HttpApi,
  headers: Headers,
  fields: Record<string, string> = {
    name: 'Zhang San',
    idNumber: '11010519491231002X',
    nationality: 'CN',
  },
  photos: { front: Buffer | null; back: Buffer | null } = { front: images.jpeg, back: images.png },
) {
  let req = api.http.post('/api/kyc').set(headers);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  if (photos.front) req = req.attach('front', photos.front, 'front.jpg');
  if (photos.back) req = req.attach('back', photos.back, 'back.png');
  return req;
}

/** A registered user whose identity (Zhang San, `postKyc`'s default) is verified. */
export async function verifiedUser(api: HttpApi, prefix: string) {
  const user = await registerUser(api, prefix);
  await verifyKyc(api, user);
  return user;
}

/** Submits an identity check and has an operator approve it. */
export async function verifyKyc(
  api: HttpApi,
  user: TestUser,
  fields?: Parameters<typeof postKyc>[2],
): Promise<void> {
  await postKyc(api, user.auth, fields).expect(201);
  const list = await api.http.get('/api/ops/kyc?status=pending&limit=100').set(opsAuth).expect(200);
  const mine = (list.body.items as { id: string; userId: string }[]).find(
    (k) => k.userId === user.user.id,
  );
  await api.http.post(`/api/ops/kyc/${mine!.id}/approve`).set(opsAuth).expect(200);
}

/** The transaction password every test user registers with (`registerUser`). */
export const TRADE_PASSWORD = '123456';

/** A bank card to bind, with the transaction password that confirms the binding. */
/** A bank account in the name `verifyKyc` verifies: the holder must be the verified identity. */
export const bankAccountBody = {
  type: 'bank',
  holderName: 'Zhang San',
  nationality: 'CN',
  bankName: 'Bank of Tests',
  cardNumber: '6222020012345678',
  tradePassword: TRADE_PASSWORD,
};

/** Binds a bank card; returns the account id. */
export async function bindBank(api: HttpApi, user: TestUser): Promise<string> {
  const res = await api.http
    .post('/api/withdrawal-accounts')
    .set(user.auth)
    .send(bankAccountBody)
    .expect(201);
  return res.body.id as string;
}

/** A registered user with a verified identity, a bound bank card and `balance` available. */
export async function readyUser(api: HttpApi, balance: number, prefix = 'rich') {
  const user = await registerUser(api, prefix);
  await verifyKyc(api, user);
  const accountId = await bindBank(api, user);
  if (balance > 0) await fund(api, user, balance);
  return { ...user, accountId };
}

export async function summaryOf(api: HttpApi, user: TestUser) {
  return (await api.http.get('/api/account/summary').set(user.auth).expect(200)).body as {
    available: number;
    withdrawHold: number;
    totalAssets: number;
    verified: boolean;
  };
}

export async function expectLedgerOk(api: HttpApi): Promise<void> {
  const res = await api.http.get('/api/ops/ledger/check').set(opsAuth).expect(200);
  expect(res.body).toEqual({ ok: true, problems: [] });
}

/** The items of a paged answer, typed for the assertions. */
export const itemsOf = <T = { id: string; status: string }>(res: { body: unknown }): T[] =>
  (res.body as { items: T[] }).items;
