import { useEffect, useState } from 'react';
import { serverNow } from '@client/streams';
import { countdownText, formatCountdown, msToNextSecond } from './countdown';

const ZERO = formatCountdown(0);

/**
 * The time an open order has left, on the server clock ("00:29"). It repaints only when the shown
 * second changes, and reads the clock afresh each time, so a clock correction shows at once.
 */
export function Countdown({
  expiresAt,
  testId,
  endedText,
}: {
  expiresAt: number;
  testId?: string;
  /** Shown instead of "00:00" once the time is up (the order is being settled). */
  endedText?: string;
}) {
  const [text, setText] = useState(() => countdownText(expiresAt, serverNow()));

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const update = () => {
      const now = serverNow();
      setText(countdownText(expiresAt, now));
      const next = msToNextSecond(expiresAt, now);
      // A few ms late rather than early: early would show the same second again.
      if (next !== Infinity) timer = setTimeout(update, next + 5);
    };
    timer = setTimeout(update, 0);
    return () => clearTimeout(timer);
  }, [expiresAt]);

  const ended = text === ZERO;
  return (
    <span
      className={`countdown num${ended ? ' countdown--ended' : ''}`}
      data-testid={testId}
      data-ended={ended}
      role="timer"
    >
      {ended && endedText ? endedText : text}
    </span>
  );
}
