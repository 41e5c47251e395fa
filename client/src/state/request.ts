import { startTransition, useEffect, useEffectEvent, useState } from 'react';
import { isAbort } from '@client/api/client';

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
    // Results render as transitions: React draws a page full of new data in slices, between
    // which taps and scrolling still get through, instead of in one long task.
    run(controller.signal).then(
      (data) =>
        startTransition(() => setResult({ key: fullKey, state: { status: 'ready', data } })),
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
