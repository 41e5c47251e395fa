import { useEffect, useEffectEvent } from 'react';
import { reconnected$, userEvent$ } from '@client/streams';

/**
 * Calls `refresh` when the server says something of the user's changed: a `balance` event (a
 * deposit credited, a withdrawal held, paid or returned, an identity check reviewed) or a
 * `message` (every review writes one, a refused deposit included); after a reconnect (events
 * sent while offline were missed); and when the page is shown again.
 */
export function useLiveRefresh(refresh: () => void): void {
  const onChange = useEffectEvent(refresh);
  useEffect(() => {
    const subs = [
      userEvent$('balance').subscribe(() => onChange()),
      userEvent$('message').subscribe(() => onChange()),
      reconnected$.subscribe(() => onChange()),
    ];
    const onVisible = () => {
      if (document.visibilityState === 'visible') onChange();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      for (const s of subs) s.unsubscribe();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);
}
