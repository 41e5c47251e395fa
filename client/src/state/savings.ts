import { useEffect, useState } from 'react';
import type { SavingsOverview } from '@shared/savings';
import { getSavings } from '@client/api/savings';
import { isAbort } from '@client/api/client';
import { reconnected$, userEvent$ } from '@client/streams';
import { useToken } from './session';

export type SavingsState =
  | { status: 'loading'; overview: SavingsOverview | null }
  | { status: 'ready'; overview: SavingsOverview }
  | { status: 'error'; overview: SavingsOverview | null; error: unknown };

/**
 * The savings figures: loaded over REST, and again whenever the user's balances change (the
 * `balance` event follows every transfer and every cut-off that paid income), after a reconnect,
 * and on `reload()`. The last figures stay on screen while new ones load.
 */
export function useSavings(): SavingsState & { reload: () => void } {
  const token = useToken();
  const [overview, setOverview] = useState<SavingsOverview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    const load = () =>
      getSavings(controller.signal).then(
        (o) => {
          setOverview(o);
          setError(null);
        },
        (err: unknown) => {
          if (!isAbort(err)) setError(err);
        },
      );
    void load();
    const subs = [
      userEvent$('balance').subscribe(() => void load()),
      reconnected$.subscribe(() => void load()),
    ];
    return () => {
      controller.abort();
      for (const s of subs) s.unsubscribe();
    };
  }, [token, attempt]);

  const reload = () => setAttempt((n) => n + 1);
  if (error) return { status: 'error', overview, error, reload };
  if (overview) return { status: 'ready', overview, reload };
  return { status: 'loading', overview, reload };
}
