import { useQuery, type QueryKey } from '@tanstack/react-query';
import { queryClient } from './query-client';

export type RequestState<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: unknown };

export interface QueryOptions {
  /** Ask again when the page is shown again (data another party changes: reviews, payments). */
  refetchOnShow?: boolean;
  /**
   * Read afresh on every visit, not kept once the page goes (data this user's own actions on
   * other pages change with no event to say so: the accounts bound).
   */
  perVisit?: boolean;
}

/** A query read as the screens' loading / ready / error, with `retry` (also a reload). */
export function useApiQuery<T>(
  queryKey: QueryKey,
  load: () => Promise<T>,
  { refetchOnShow = false, perVisit = false }: QueryOptions = {},
): RequestState<T> & { retry: () => void } {
  const query = useQuery(
    {
      queryKey,
      queryFn: load,
      refetchOnWindowFocus: refetchOnShow ? 'always' : false,
      ...(perVisit ? { gcTime: 0 } : {}),
    },
    queryClient,
  );
  const retry = () => void query.refetch();
  // Data once there stays (a failed reload behind it changes nothing); a retry shows as loading.
  if (query.data !== undefined) return { status: 'ready', data: query.data, retry };
  if (query.status === 'error' && !query.isFetching) {
    return { status: 'error', error: query.error, retry };
  }
  return { status: 'loading', retry };
}
