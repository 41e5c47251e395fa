import { useEffect, useState } from 'react';
import { atom, useAtom } from 'jotai';
import type { AccountSummary } from '@shared/wallet';
import { getSummary } from '@client/api/account';
import { isAbort } from '@client/api/client';
import { reconnected$, userEvent$ } from '@client/streams';
import { useToken } from './session';

const summaryAtom = atom<AccountSummary | null>(null);

export type SummaryState =
  | { status: 'loading'; summary: AccountSummary | null }
  | { status: 'ready'; summary: AccountSummary }
  | { status: 'error'; summary: AccountSummary | null; error: unknown };

/**
 * The logged-in user's account summary: loaded over REST, replaced live by every `balance`
 * event, and loaded again after a reconnect (events sent while offline were missed).
 */
export function useAccountSummary(): SummaryState & { retry: () => void } {
  const token = useToken();
  const [summary, setSummary] = useAtom(summaryAtom);
  const [state, setState] = useState<
    { status: 'loading' | 'ready' } | { status: 'error'; error: unknown }
  >({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token) {
      setSummary(null);
      return;
    }
    const controller = new AbortController();
    const load = () =>
      getSummary(controller.signal).then(
        (s) => {
          setSummary(s);
          setState({ status: 'ready' });
        },
        (error: unknown) => {
          if (!isAbort(error)) setState({ status: 'error', error });
        },
      );
    void load();
    const subs = [
      userEvent$('balance').subscribe((s) => {
        setSummary(s);
        setState({ status: 'ready' });
      }),
      reconnected$.subscribe(() => void load()),
    ];
    return () => {
      controller.abort();
      for (const s of subs) s.unsubscribe();
    };
  }, [token, attempt, setSummary]);

  const retry = () => setAttempt((n) => n + 1);
  if (state.status === 'error') return { status: 'error', summary, error: state.error, retry };
  if (state.status === 'ready' && summary) return { status: 'ready', summary, retry };
  return { status: 'loading', summary, retry };
}
