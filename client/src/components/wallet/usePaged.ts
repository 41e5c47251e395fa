import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { Page } from '@shared/wallet';
import { isAbort } from '@client/api/client';
import { appendPage, mergeFirstPage, type Row } from './paging';

export type Paged<T> = {
  status: 'loading' | 'ready' | 'error';
  items: T[];
  error: unknown;
  hasMore: boolean;
  /** A further page is loading, or failed (with `moreError`). */
  loadingMore: boolean;
  moreError: unknown;
  loadMore: () => void;
  /** Loads the first page again and merges it in (a live update), keeping what is shown. */
  refresh: () => void;
  retry: () => void;
};

/**
 * A keyset-paged list (`?cursor=`, `nextCursor`): the first page per `key` (and per retry),
 * further pages on demand. Loads that finish after the page went away are dropped.
 */
export function usePaged<T extends Row>(
  key: string,
  load: (cursor: string | null, signal: AbortSignal) => Promise<Page<T>>,
): Paged<T> {
  const [attempt, setAttempt] = useState(0);
  const fullKey = `${key}#${attempt}`;
  const [data, setData] = useState<{ key: string; items: T[]; next: string | null } | null>(null);
  const [failure, setFailure] = useState<{ key: string; error: unknown } | null>(null);
  const [more, setMore] = useState<{ key: string; busy: boolean; error: unknown } | null>(null);
  const run = useEffectEvent(load);
  const controllers = useRef(new Set<AbortController>());

  useEffect(() => {
    const controller = new AbortController();
    const all = controllers.current;
    all.add(controller);
    run(null, controller.signal).then(
      (page) => setData({ key: fullKey, items: page.items, next: page.nextCursor }),
      (error: unknown) => {
        if (!isAbort(error) && !controller.signal.aborted) setFailure({ key: fullKey, error });
      },
    );
    return () => {
      // Every load of this key stops with it (further pages and refreshes too).
      for (const c of all) c.abort();
      all.clear();
    };
  }, [fullKey]);

  const current = data?.key === fullKey ? data : null;
  const moreNow = more?.key === fullKey ? more : null;

  const start = (work: (signal: AbortSignal) => Promise<void>) => {
    const controller = new AbortController();
    controllers.current.add(controller);
    void work(controller.signal).finally(() => controllers.current.delete(controller));
  };

  const loadMore = () => {
    if (!current?.next || moreNow?.busy) return;
    const cursor = current.next;
    setMore({ key: fullKey, busy: true, error: null });
    start((signal) =>
      load(cursor, signal).then(
        (page) => {
          setData((d) =>
            d?.key === fullKey
              ? { ...d, items: appendPage(d.items, page), next: page.nextCursor }
              : d,
          );
          setMore(null);
        },
        (error: unknown) => {
          if (!isAbort(error) && !signal.aborted) setMore({ key: fullKey, busy: false, error });
        },
      ),
    );
  };

  const refresh = () => {
    if (!current) return;
    start((signal) =>
      load(null, signal).then(
        (page) =>
          setData((d) =>
            d?.key === fullKey ? { key: d.key, ...mergeFirstPage(d.items, d.next, page) } : d,
          ),
        () => undefined, // a failed live refresh leaves the list as it was
      ),
    );
  };

  const status = current ? 'ready' : failure?.key === fullKey ? 'error' : 'loading';
  return {
    status,
    items: current?.items ?? [],
    error: failure?.key === fullKey ? failure.error : null,
    hasMore: !!current?.next,
    loadingMore: !!moreNow?.busy,
    moreError: moreNow?.error ?? null,
    loadMore,
    refresh,
    retry: () => setAttempt((n) => n + 1),
  };
}
