import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './account-hold.css';
import { platformNow, useFollowTestClock } from '@client/state/platform-clock';
import { formatHoldLeft, holdLeftMs, msToNextSecond } from './account-hold';

/**
 * The time a withdrawal account's hold has left, on the server's platform clock (the one its
 * hold ends by, moved by tests under TEST_CLOCK=1), repainted as each second changes; 0 once it
 * is over (and nothing more is scheduled).
 */
export function useHoldLeft(usableAt: number): number {
  const [left, setLeft] = useState(() => holdLeftMs(usableAt, platformNow()));
  useFollowTestClock(left > 0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const update = () => {
      const now = platformNow();
      setLeft(holdLeftMs(usableAt, now));
      const next = msToNextSecond(usableAt, now);
      // A few ms late rather than early: early would show the same second again.
      if (next !== Infinity) timer = setTimeout(update, next + 5);
    };
    update();
    return () => clearTimeout(timer);
  }, [usableAt]);
  return left;
}

/**
 * "Usable for withdrawals in 23:14:05" under an account still on hold; gone by itself when the
 * hold ends. `left` comes from `useHoldLeft` (the caller also needs it to block the account).
 */
export function AccountHold({ id, left }: { id: string; left: number }) {
  const { t } = useTranslation();
  if (left <= 0) return null;
  return (
    <span className="account-hold" role="timer" data-testid={`account-hold-${id}`}>
      {t('wallet.account.onHold', { time: formatHoldLeft(left) })}
    </span>
  );
}

/** The countdown of one account (for lists that need nothing else of the hold). */
export function AccountHoldOf({ account }: { account: { id: string; usableAt: number } }) {
  const left = useHoldLeft(account.usableAt);
  return <AccountHold id={account.id} left={left} />;
}
