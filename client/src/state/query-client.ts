import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@client/api/client';
import { getProducts } from '@client/api/market';

/** Fresh for this long: one visit of a page asks for each thing once, a return soon after not at all. */
const STALE_MS = 30_000;

/**
 * One more try for a failure that may pass (no answer, a 5xx), never for a 4xx: the server has
 * judged the request, and asking again gets the same answer. A timeout has already waited 60 s.
 */
export function shouldRetry(failures: number, error: unknown): boolean {
  if (failures >= 1 || !(error instanceof ApiError)) return false;
  if (error.code === 'TIMEOUT') return false;
  return error.status === 0 || error.status >= 500;
}

/**
 * The app's one query cache. The query functions never take TanStack's abort signal: a page that
 * goes away (or React's double mount in development) leaves its read to finish into the cache
 * instead of cancelling it and asking again. `networkMode: 'always'`: offline, a read fails with
 * the network error and its retry, as every screen shows it, instead of waiting silently.
 * Focus does not refetch: the screens whose data changes behind them (money, identity) ask for it.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: STALE_MS,
      retry: shouldRetry,
      retryDelay: 1_000,
      networkMode: 'always',
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
    },
  },
});

/**
 * Query keys. Everything of the signed-in user starts with `me`: the session's change drops it all
 * (query-bridge.ts), a reconnection that may have missed some of its events reloads it.
 */
export const queryKeys = {
  me: ['me'] as const,
  products: ['products'] as const,
  user: ['me', 'user'] as const,
  summary: ['me', 'summary'] as const,
  favourites: ['me', 'favourites'] as const,
  /** The user's drawings on a product's chart (a `drawings` event reads them again). */
  drawings: (product: string) => ['me', 'drawings', product] as const,
  savings: ['me', 'savings'] as const,
  /** The messages list and the unread count. */
  messages: ['me', 'messages'] as const,
  unread: ['me', 'messages', 'unread'] as const,
  messageList: ['me', 'messages', 'list'] as const,
  orders: (mode: string, status?: 'open' | 'closed') =>
    status ? ['me', 'orders', mode, status] : ['me', 'orders', mode],
  /** What a `balance` or `message` event may change: money records and the identity check. */
  wallet: ['me', 'wallet'] as const,
  kyc: ['me', 'wallet', 'kyc'] as const,
  deposits: ['me', 'wallet', 'deposits'] as const,
  withdrawals: ['me', 'wallet', 'withdrawals'] as const,
  fundRecords: (type: string) => ['me', 'wallet', 'fund-records', type],
};

/** The product list (Home, the product list, the orders' product names). */
export const productsQuery = { queryKey: queryKeys.products, queryFn: () => getProducts() };

/**
 * Starts loading the product list for a page about to show it, while the page's code and texts
 * still load: the page's query then finds it in the cache, on its way or there.
 */
export function prefetchProducts(): void {
  void queryClient.prefetchQuery(productsQuery);
}
