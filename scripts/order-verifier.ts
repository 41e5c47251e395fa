import { auditOrder, type PublicTick } from '@shared/orders/audit';
import type { Order, TradeMode } from '@shared/orders/model';
import { auditSale, type PeriodModel, type PublishedTerms } from './order-verifier-sale';
import { patientFetch } from './patient-fetch';

/**
 * `npm run verify:orders`'s work, over HTTP: a user's closed orders (`GET /api/orders`, with the
 * user's token) checked one by one against the public tape (`GET /api/market/ticks`) with the
 * published rule (shared/src/orders/audit.ts); a sold order against the early-close rule and the
 * product's published terms (order-verifier-sale.ts). Only public endpoints and the user's own
 * are read.
 */

export interface OrderSource {
  /** Every closed order of the user in `mode`, newest first. */
  closedOrders(mode: TradeMode): Promise<Order[]>;
  /** The product's ticks with from ≤ ts ≤ to. */
  ticks(productId: string, from: number, to: number): Promise<PublicTick[]>;
  /** The product's precision and early-close terms (`GET /api/market/products/:id`). */
  product(productId: string): Promise<PublishedTerms>;
  /** The fairness periods overlapping [from, to] (`GET /api/market/fairness`); [] if not shown. */
  periods(productId: string, from: number, to: number): Promise<PeriodModel[]>;
}

/**
 * The server's API as an order source. A read refused for its rate or a busy server is sent
 * again after the wait the server gives (patient-fetch.ts): a long history reads the tape once
 * per order, past the per-address limit of market reads.
 */
export function httpOrderSource(
  baseUrl: string,
  token: string,
  fetchImpl: typeof fetch = patientFetch(),
): OrderSource {
  const get = async <T>(path: string, query: Record<string, string | number>): Promise<T> => {
    const url = new URL(path, baseUrl);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    const res = await fetchImpl(url, { headers: { Authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    async closedOrders(mode) {
      const out: Order[] = [];
      let cursor: string | null = null;
      do {
        const page: { items: Order[]; nextCursor: string | null } = await get('/api/orders', {
          status: 'closed',
          mode,
          limit: 100,
          ...(cursor ? { cursor } : {}),
        });
        out.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return out;
    },
    async ticks(productId, from, to) {
      const out: PublicTick[] = [];
      for (;;) {
        const page = await get<PublicTick[]>('/api/market/ticks', {
          product: productId,
          from,
          to,
          after: out.at(-1)?.seq ?? 0,
          limit: 1000,
        });
        out.push(...page);
        if (page.length < 1000) return out;
      }
    },
    async product(productId) {
      const p = await get<PublishedTerms>(
        `/api/market/products/${encodeURIComponent(productId)}`,
        {},
      );
      return { precision: p.precision, earlyClose: p.earlyClose ?? null };
    },
    async periods(productId, from, to) {
      // The commitments are checked by verify:tape; here only their σ is read, where shown.
      return get<PeriodModel[]>('/api/market/fairness', { product: productId, from, to }).catch(
        () => [],
      );
    },
  };
}

export interface OrderFinding {
  order: Order;
  problems: string[];
}

export interface OrdersReport {
  checked: number;
  /** Closed orders per result, as the server settled them. */
  byStatus: Record<string, number>;
  mismatches: OrderFinding[];
  /** Orders whose tape is no longer kept (TICK_RETENTION_HOURS): nothing to check them against. */
  unverifiable: Order[];
}

/**
 * Checks every closed order of the user in the given modes; `concurrency` tape reads at a time.
 * `onProgress` hears after each order (a long history takes a while).
 */
export async function verifyOrders(
  source: OrderSource,
  o: {
    modes: readonly TradeMode[];
    maxFeedDelayMs: number;
    concurrency?: number;
    onProgress?: (done: number, total: number) => void;
  },
): Promise<OrdersReport> {
  const orders = (await Promise.all(o.modes.map((m) => source.closedOrders(m)))).flat();
  const report: OrdersReport = { checked: 0, byStatus: {}, mismatches: [], unverifiable: [] };
  const terms = new Map<string, Promise<PublishedTerms>>();
  const check = async (order: Order, tape: PublicTick[]) => {
    if (order.status !== 'sold') return auditOrder(order, tape, o.maxFeedDelayMs).problems;
    if (!terms.has(order.productId)) terms.set(order.productId, source.product(order.productId));
    const published = {
      terms: await terms.get(order.productId)!,
      periods: await source.periods(order.productId, order.createdAt, order.expiresAt),
    };
    return auditSale(order, tape, o.maxFeedDelayMs, published);
  };
  let next = 0;
  const work = async () => {
    while (next < orders.length) {
      const order = orders[next++]!;
      // Acceptance to expiry holds every tick the rule can choose.
      const tape = await source.ticks(order.productId, order.createdAt, order.expiresAt);
      report.byStatus[order.status] = (report.byStatus[order.status] ?? 0) + 1;
      if (!tape.length && (order.entry || order.exit)) report.unverifiable.push(order);
      else {
        const problems = await check(order, tape);
        if (problems.length) report.mismatches.push({ order, problems });
      }
      report.checked++;
      o.onProgress?.(report.checked, orders.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? 4) }, work));
  report.mismatches.sort((a, b) => Number(a.order.id) - Number(b.order.id));
  return report;
}
