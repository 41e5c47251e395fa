import { useEffect, useState } from 'react';
import { serverNow } from '@client/streams';
import { timeLeftShare } from './position';

/** How often the bar is redrawn; a CSS transition of the same length keeps it moving smoothly. */
const STEP_MS = 250;

/**
 * The time an open order has left as a shrinking bar, on the server clock like the countdown
 * (Countdown.tsx): a phone whose clock is wrong still shows the order's real time. Decorative:
 * the countdown beside it says the same in figures.
 */
export function TimeBar({
  order,
  testId,
}: {
  order: { createdAt: number; expiresAt: number };
  testId?: string;
}) {
  const { createdAt, expiresAt } = order;
  const [share, setShare] = useState(() => timeLeftShare({ createdAt, expiresAt }, serverNow()));

  useEffect(() => {
    const update = () => {
      const next = timeLeftShare({ createdAt, expiresAt }, serverNow());
      setShare(next);
      if (next === 0) clearInterval(timer);
    };
    const timer = setInterval(update, STEP_MS);
    update();
    return () => clearInterval(timer);
  }, [createdAt, expiresAt]);

  return (
    <div className="time-bar" aria-hidden="true">
      <div
        className="time-bar__fill"
        data-testid={testId}
        data-share={share.toFixed(3)}
        style={{ width: `${(share * 100).toFixed(2)}%` }}
      />
    </div>
  );
}
