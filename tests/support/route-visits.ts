import request from 'supertest';
import type { Page } from 'playwright-core';
import { appRoutes, homeAliases } from '@client/app/route-table';
import { OPERATOR_TOKEN, registerUser, type HttpApi } from './api';
import { deposit, opsAuth, readyUser, TRADE_PASSWORD, type TestUser } from './wallet';

/**
 * The data behind the route suite and the screenshots: a trader with history on every screen
 * and a newcomer with none (the empty states). Seeded through the public API and the operator
 * API of a running app started with `OPERATOR_TOKEN`.
 */
export interface RouteSeed {
  trader: TestUser & { accountId: string };
  newcomer: TestUser;
  newsId: string;
  /** The trader's open order (the order details page). */
  orderId: string;
  /** A user whose one 30 s practice order settles unseen: the result toast on any page. */
  settled: TestUser;
}

export const routeAppEnv = { OPERATOR_TOKEN, SIM_BACKFILL_HOURS: '1' };

export async function seedRouteData(url: string): Promise<RouteSeed> {
  const api: HttpApi = { http: request(url) };
  // Verified, a bank card bound, 10 000.00 deposited and approved (a message).
  const trader = await readyUser(api, 1_000_000, 'trader');
  // A pending deposit, a rejected one (a second message), a coin address, a pending withdrawal.
  await deposit(api, trader, 50_000);
  const rejected = await deposit(api, trader, 20_000);
  await api.http
    .post(`/api/ops/deposits/${rejected}/reject`)
    .set(opsAuth)
    .send({ reason: 'Screenshot unreadable' })
    .expect(200);
  await api.http
    .post('/api/withdrawal-accounts')
    .set(trader.auth)
    .send({
      type: 'coin',
      network: 'TRC20',
      address: 'TXyZ7aBcDeFgHiJkLmNoPqRsTuVwXyZ123',
      tradePassword: TRADE_PASSWORD,
    })
    .expect(201);
  await api.http
    .post('/api/withdrawals')
    .set(trader.auth)
    .send({ accountId: trader.accountId, amount: 30_000, tradePassword: '123456' })
    .expect(201);
  await api.http.post('/api/savings/in').set(trader.auth).send({ amount: 100_000 }).expect(201);
  const orderId = await placeOpenOrder(api, trader);
  const settled = await registerUser(api, 'settled');
  await placeOpenOrder(api, settled, { mode: 'practice', duration: 30 });

  const newcomer = await registerUser(api, 'newbie');
  const news = await api.http.get('/api/news?lang=zh-CN').expect(200);
  const items = (news.body as { items: { id: string | number }[] }).items;
  return { trader, newcomer, newsId: String(items[0]?.id ?? ''), orderId, settled };
}

/** A 5-minute "up" order on BTCUSDT, retried while the simulator's first ticks arrive. */
async function placeOpenOrder(
  api: HttpApi,
  user: TestUser,
  terms: { mode?: 'practice'; duration?: number } = {},
): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await api.http
      .post('/api/orders')
      .set(user.auth)
      .send({ productId: 'BTCUSDT', direction: 'up', amount: 10_000, duration: 300, ...terms });
    if (res.status === 201) return String((res.body as { id: string | number }).id);
    if (Date.now() > deadline) throw new Error(`order refused: ${res.status} ${res.text}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

export type Visitor = 'trader' | 'newcomer' | 'settled' | 'guest';

/** Present once the app has drawn anything of its own (index.html's boot screen is replaced). */
export const appDrawn = '#root > :not(.boot)';

export interface RouteVisit {
  /** The route with its query, as it follows `#`. */
  path: string;
  as: Visitor;
  /** The empty state is expected (a list with nothing in it). */
  empty?: boolean;
  /** Shown once the page is in the state worth checking (e.g. a price that has moved). */
  ready?: string;
  /** Run just before the visit, against the app's URL (data that would have gone stale). */
  prepare?: (url: string) => Promise<void>;
}

/**
 * Every route of the spec's table (seed spec §2) with the data each needs, as a trader; the
 * sign-in and registration pages as a guest; the lists again as a newcomer, empty.
 */
export function routeVisits(seed: RouteSeed): RouteVisit[] {
  const query: Record<string, string> = {
    '/pages/account/account-detail': `?id=${seed.trader.accountId}`,
    '/pages/transfer/transfer': '?channel=bank',
    '/pages/Detail/Detail': '?id=BTCUSDT',
    '/pages/password/password': '?kind=login',
    '/pages/index/detail': `?id=${seed.newsId}`,
    '/pages/order/detail': `?id=${seed.orderId}`,
    '/pages/recharge/recharge-bank-card': '?amount=100000',
    '/pages/recharge/recharge-usdt-trc20': '?amount=10000',
    '/pages/recharge/recharge-usdt-erc20': '?amount=10000',
  };
  const guestOnly = new Set([
    '/pages/login/login',
    '/pages/login/registerCheck',
    '/pages/password/forgot',
  ]);
  // The live price after it has moved, coloured: its direction must show by more than colour.
  const ready: Record<string, string> = {
    '/pages/Detail/Detail': '.live-price:not([data-direction="flat"])',
  };
  // Statistics count settled orders, and the trader's 5-minute order settles while a slow pass
  // is still running (the second pass starts about 4 minutes in): whether the trader's page is
  // empty depends on the clock. The newcomer's is always empty (below, with the newcomer's other
  // empty lists); the figures are the stats journey's.
  const newcomerOnly = new Set(['/pages/order/stats']);
  const visits: RouteVisit[] = [
    ...homeAliases.map((p) => ({ path: p, as: 'guest' as const })),
    ...appRoutes
      .filter((r) => !newcomerOnly.has(r.path))
      .map((r) => ({
        ready: ready[r.path],
        path: r.path + (query[r.path] ?? ''),
        as:
          guestOnly.has(r.path) || r.path === '/pages/login/register'
            ? ('guest' as const)
            : ('trader' as const),
      })),
    // The seeded order may have expired by the time a slow pass gets here: a fresh one each visit.
    {
      path: '/pages/order/order?tab=positions',
      as: 'trader',
      prepare: async (url) => void (await placeOpenOrder({ http: request(url) }, seed.trader)),
    },
    { path: '/pages/account/account?bind=bank', as: 'newcomer' },
    { path: '/pages/password/password?kind=trade', as: 'trader' },
    { path: '/pages/transfer/transfer?channel=usdt-trc20', as: 'trader' },
    { path: '/pages/verify/verify', as: 'newcomer' },
  ];
  for (const p of [
    '/pages/money-record/money-record',
    '/pages/order/order?tab=history',
    '/pages/withdraw-list/withdraw-list',
    '/pages/withdraw-list/withdraw-open',
    '/pages/Particulars/Particulars',
    ...newcomerOnly,
  ])
    visits.push({ path: p, as: 'newcomer', empty: true });
  // Nothing bound yet: not an empty list but the two "bind" offers.
  visits.push({ path: '/pages/account/account', as: 'newcomer' });
  return visits;
}

/** A file-system-safe name for a visit: `trader--pages-order-order--tab-history`. */
export function visitName(v: RouteVisit): string {
  const slug = v.path
    .replace(/^\/$/, 'root')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${v.as}--${slug}`;
}

/** Local storage of a visitor: the session (token and profile) and the language. */
export function storageScript(seed: RouteSeed, as: Visitor, lang: string): string {
  const user = as === 'guest' ? null : seed[as];
  const lines = [`localStorage.setItem('i18nLang', ${JSON.stringify(lang)});`];
  if (user)
    lines.push(`localStorage.setItem('token', ${JSON.stringify(JSON.stringify(user.token))});`);
  // Register step two needs step one's answers (else it sends the visitor back to step one).
  if (as === 'guest')
    lines.push(
      `localStorage.setItem('registerInfo', ${JSON.stringify(
        JSON.stringify({ account: 'newguest1', phone: '+8613800138000', inviteCode: 'WELCOME' }),
      )});`,
    );
  // Only on the first document of the page: a test that changes storage later keeps its change.
  return `if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1'); ${lines.join(' ')} }`;
}

/** Network activity of a page: requests in flight and everything that failed. */
export function watchNetwork(page: Page) {
  const inFlight = new Set<unknown>();
  const failures: string[] = [];
  const errors: string[] = [];
  let lastChange = Date.now();
  page.on('request', (r) => {
    inFlight.add(r);
    lastChange = Date.now();
  });
  page.on('requestfinished', (r) => {
    inFlight.delete(r);
    lastChange = Date.now();
  });
  page.on('requestfailed', (r) => {
    inFlight.delete(r);
    lastChange = Date.now();
    const why = r.failure()?.errorText ?? 'failed';
    // A read the app itself cancelled (its AbortSignal, when a list re-renders or a page
    // unmounts) is no failure; a write cut off, or any other error, is.
    if (why === 'net::ERR_ABORTED' && r.method() === 'GET') return;
    failures.push(`${r.method()} ${r.url()}: ${why}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) failures.push(`${r.request().method()} ${r.url()}: ${r.status()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} @ ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return {
    failures,
    errors,
    /** Resolves once no request has been in flight for `quietMs` and no spinner shows. */
    async settle(quietMs = 400, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const loading = await page.locator('[role="status"] .spinner').count();
        if (inFlight.size === 0 && loading === 0 && Date.now() - lastChange >= quietMs) return;
        if (Date.now() > deadline)
          throw new Error(
            `page never settled: ${inFlight.size} requests in flight, ${loading} spinners`,
          );
        await page.waitForTimeout(100);
      }
    },
  };
}
