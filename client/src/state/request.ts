import { startTransition, useEffect, useEffectEvent, useState } from 'react';
import { isAbort } from '@client/api/client';

/** A prefetched answer older than this is not used: the page asks again. */
const PREFETCH_FRESH_MS = 10_000;
const prefetched = new Map<string, { answer: Promise<unknown>; at: number }>();

/**
 * Starts now a load that a screen about to be drawn will make (at start, for the first page:
 * its data is then on the way while the page's code and texts still load). The screen's
 * `useRequest` with the same `key` takes this answer instead of asking again; it is used once,
 * so a retry or a later visit asks afresh.
 */
export function prefetch<T>(key: string, load: (signal: AbortSignal) => Promise<T>): void {
  // Filed under the first attempt's key (see fullKey below): a retry never takes it.
  const firstKey = `${key}#0`;
  if (prefetched.has(firstKey)) return;
  const answer = load(new AbortController().signal);
  answer.catch(() => undefined); // a failure is shown by the screen that takes it
  prefetched.set(firstKey, { answer, at: performance.now() });
}

function takePrefetched<T>(key: string): Promise<T> | null {
  const entry = prefetched.get(key);
  prefetched.delete(key);
  if (!entry || performance.now() - entry.at > PREFETCH_FRESH_MS) return null;
  return entry.answer as Promise<T>;
}

export type RequestState<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: unknown };

/**
 * Loads once per `key` (and again on `retry`), cancelling the previous load. The result is kept
 * with the key it belongs to, so a new key reads as loading at once, without a stale render.
 */
export function useRequest<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
): RequestState<T> & { retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ key: string; state: RequestState<T> } | null>(null);
  const run = useEffectEvent(load);
  const fullKey = `${key}#${attempt}`;

  useEffect(() => {
    const controller = new AbortController();
    const answer = takePrefetched<T>(fullKey) ?? run(controller.signal);
    // Results render as transitions: React draws a page full of new data in slices, between
    // which taps and scrolling still get through, instead of in one long task.
    answer.then(
      (data) => {
        if (controller.signal.aborted) return;
        startTransition(() => setResult({ key: fullKey, state: { status: 'ready', data } }));
      },
      (error: unknown) => {
        if (!isAbort(error) && !controller.signal.aborted) {
          startTransition(() => setResult({ key: fullKey, state: { status: 'error', error } }));
        }
      },
    );
    return () => controller.abort();
  }, [fullKey]);

  const state: RequestState<T> = result?.key === fullKey ? result.state : { status: 'loading' };
  return { ...state, retry: () => setAttempt((n) => n + 1) };
}
