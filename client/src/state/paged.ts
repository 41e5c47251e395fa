import { useInfiniteQuery, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import type { Page } from '@shared/wallet/model';
import type { QueryOptions } from './queries';
import { getDefaultStore } from 'jotai';
import { queryClient } from './query-client';
import { tokenAtom } from './session';

// Paged lists are on lazily loaded pages only: pages import this module directly (not through
// state/index.ts), so the infinite query's code stays out of the first screen's JavaScript.

/** Rows of a keyset-paged list, newest first. */
export interface Row {
  id: string;
}

export type Paged<T> = {
  status: 'loading' | 'ready' | 'error';
  items: T[];
  error: unknown;
  hasMore: boolean;
  /** A further page is loading, or failed (with `moreError`). */
  loadingMore: boolean;
  moreError: unknown;
  loadMore: () => void;
  retry: () => void;
};

/** The pages as one list; a row that shifted onto the next page between reads shows once. */
export function flattenPages<T extends Row>(data: InfiniteData<Page<T>> | undefined): T[] {
  const seen = new Set<string>();
  const items: T[] = [];
  for (const page of data?.pages ?? []) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }
  return items;
}

/**
 * A keyset-paged list (`?cursor=`, `nextCursor`): the first page, further pages on demand. `first`:
 * a first page already at hand (Home's news). An invalidation reads every loaded page again.
 */
export function usePagedQuery<T extends Row>(
  queryKey: QueryKey,
  load: (cursor: string | null) => Promise<Page<T>>,
  {
    first,
    refetchOnShow = false,
    perVisit = false,
    signedInOnly = false,
  }: QueryOptions & { first?: Page<T>; signedInOnly?: boolean } = {},
): Paged<T> {
  const query = useInfiniteQuery(
    {
      queryKey,
      queryFn: ({ pageParam }) => load(pageParam),
      initialPageParam: null as string | null,
      getNextPageParam: (last: Page<T>) => last.nextCursor,
      initialData: first ? { pages: [first], pageParams: [null] } : undefined,
      refetchOnWindowFocus: refetchOnShow ? 'always' : false,
      // Read from the store when the query would run, not from the last render: a logout resets
      // the user's queries before the components on screen re-render, and must not refetch them.
      ...(signedInOnly ? { enabled: () => getDefaultStore().get(tokenAtom) !== null } : {}),
      ...(perVisit ? { gcTime: 0 } : {}),
    },
    queryClient,
  );
  const failed = query.status === 'error' && !query.isFetching;
  return {
    // Pages once there stay: a failed further page or live reload leaves the list as it was.
    status: query.data ? 'ready' : failed ? 'error' : 'loading',
    items: flattenPages(query.data),
    error: failed ? query.error : null,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    moreError: query.isFetchNextPageError ? query.error : null,
    loadMore: () => {
      if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
    },
    retry: () => void query.refetch(),
  };
}

/** Changes the cached rows of a paged list in place (a message marked read). */
export function updatePagedRows<T extends Row>(queryKey: QueryKey, change: (item: T) => T): void {
  queryClient.setQueryData<InfiniteData<Page<T>>>(
    queryKey,
    (data) =>
      data && { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.map(change) })) },
  );
}
