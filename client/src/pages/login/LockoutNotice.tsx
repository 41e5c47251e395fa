import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/api/client';

/**
 * When a login refused as locked out (429 TOO_MANY_ATTEMPTS with the time to wait) may be tried
 * again, in this page's clock; null for any other failure.
 */
export function lockedUntil(error: unknown, now = Date.now()): number | null {
  if (!(error instanceof ApiError) || error.code !== 'TOO_MANY_ATTEMPTS') return null;
  if (error.retryAfterMs === undefined) return null;
  return now + error.retryAfterMs;
}

/**
 * "Too many attempts. Try again in 4 min 30 s": whole seconds left, rounded up, in the largest
 * two units that matter (hours and minutes for a day-long lock, seconds under a minute).
 */
export function lockoutText(t: TFunction, secondsLeft: number): string {
  const total = Math.max(1, Math.ceil(secondsLeft));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return t('account.login.lockedHours', { hours, minutes });
  if (minutes > 0) return t('account.login.lockedMinutes', { minutes, seconds });
  return t('account.login.lockedSeconds', { seconds });
}

/**
 * The lock-out's live countdown, in place of the form's error. Screen readers hear the first
 * wait once (an alert re-read every second would drown the page); the figure on screen ticks.
 * `onOver` runs when the wait has passed, so the form can be tried again.
 */
export function LockoutNotice({ until, onOver }: { until: number; onOver: () => void }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(Date.now);
  const left = (until - now) / 1000;
  // Keyed by `until` where it is used: a new refusal is a new notice, spoken again.
  const [spoken] = useState(() => lockoutText(t, left));

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  useEffect(() => {
    if (left <= 0) onOver();
  }, [left, onOver]);

  if (left <= 0) return null;
  return (
    <div className="form-error num" role="alert">
      <span className="visually-hidden">{spoken}</span>
      <span aria-hidden="true" data-testid="lockout">
        {lockoutText(t, left)}
      </span>
    </div>
  );
}
