import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { Page } from '@shared/wallet';
import { isAbort } from '@client/api/client';

type Row = { id: string };

export interface PagedList<T> {
  status: 'loading' | 'ready' | 'error';
  items: T[];
  error: unknown;
  hasMore: boolean;
  loadingMore: boolean;
  moreError: unknown;
  loadMore: () => void;
  /** Loads the first page again and puts rows not shown yet on top (a new message arrived). */
  refresh: () => void;
  retry: () => void;
  /** Changes shown rows in place (a message marked read). */
  update: (change: (item: T) => T) => void;
}

interface State<T> {
  key: string;
  items: T[];
  next: string | null;
}

/**
 * A keyset-paged list, newest first: the first page per `key` (or `first`, already loaded), then
 * more on demand. Answers that arrive after the key changed or the screen went away are dropped.
 */
export function usePagedList<T extends Row>(
  key: string,
  load: (cursor: string | null, signal: AbortSignal) => Promise<Page<T>>,
  first?: Page<T>,
): PagedList<T> {
  const [attempt, setAttempt] = useState(0);
  const fullKey = `${key}#${attempt}`;
  const [data, setData] = useState<State<T> | null>(null);
  const [error, setError] = useState<{ key: string; error: unknown } | null>(null);
  const [more, setMore] = useState<{ key: string; busy: boolean; error: unknown } | null>(null);
  const run = useEffectEvent(load);
  const firstPage = useEffectEvent(() => first);
  const controllers = useRef(new Set<AbortController>());

  useEffect(() => {
    const all = controllers.current;
    if (!firstPage()) {
      const controller = new AbortController();
      all.add(controller);
      run(null, controller.signal).then(
        (page) => setData({ key: fullKey, items: page.items, next: page.nextCursor }),
        (err: unknown) => {
          if (!isAbort(err) && !controller.signal.aborted) setError({ key: fullKey, error: err });
        },
      );
    }
    return () => {
      for (const c of all) c.abort();
      all.clear();
    };
  }, [fullKey]);

  // A first page handed in is the list until something changes it.
  const given = (): State<T> | null =>
    first ? { key: fullKey, items: first.items, next: first.nextCursor } : null;
  const current = data?.key === fullKey ? data : given();
  const moreNow = more?.key === fullKey ? more : null;

  const start = (work: (signal: AbortSignal) => Promise<unknown>) => {
    const controller = new AbortController();
    controllers.current.add(controller);
    void work(controller.signal).finally(() => controllers.current.delete(controller));
  };
  const change = (fn: (d: State<T>) => State<T>) =>
    setData((d) => {
      const now = d?.key === fullKey ? d : given();
      return now ? fn(now) : d;
    });

  return {
    status: current ? 'ready' : error?.key === fullKey ? 'error' : 'loading',
    items: current?.items ?? [],
    error: error?.key === fullKey ? error.error : null,
    hasMore: !!current?.next,
    loadingMore: !!moreNow?.busy,
    moreError: moreNow?.error ?? null,
    loadMore() {
      if (!current?.next || moreNow?.busy) return;
      const cursor = current.next;
      setMore({ key: fullKey, busy: true, error: null });
      start((signal) =>
        load(cursor, signal).then(
          (page) => {
            change((d) => {
              const seen = new Set(d.items.map((i) => i.id));
              return {
                ...d,
                items: [...d.items, ...page.items.filter((i) => !seen.has(i.id))],
                next: page.nextCursor,
              };
            });
            setMore(null);
          },
          (err: unknown) => {
            if (!isAbort(err) && !signal.aborted)
              setMore({ key: fullKey, busy: false, error: err });
          },
        ),
      );
    },
    refresh() {
      if (!current) return;
      start((signal) =>
        load(null, signal).then(
          (page) =>
            change((d) => {
              const seen = new Set(d.items.map((i) => i.id));
              return { ...d, items: [...page.items.filter((i) => !seen.has(i.id)), ...d.items] };
            }),
          () => undefined, // a failed refresh leaves the list as it was
        ),
      );
    },
    retry: () => setAttempt((n) => n + 1),
    update: (fn) => change((d) => ({ ...d, items: d.items.map(fn) })),
  };
}
