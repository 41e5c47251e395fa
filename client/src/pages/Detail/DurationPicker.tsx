import { useTranslation } from 'react-i18next';
import { clockExpiries, clockTerms } from '@shared/orders/clock-expiry';
import { formatRate } from '@client/components/orders/format';
import { useDurationLabel } from '@client/components/orders/useDurationLabel';
import { formatClock } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { useReportTicketDuration } from '@client/state/ticket-duration';
import type { TicketAmount } from './useTicketAmount';

/**
 * The product's durations, each with its earnings rate, and the two ends at a clock time (this
 * minute, the next), each with the rate its time left gets; one is chosen. The ticket's `now` is
 * the server's clock, read each second.
 */
export function DurationPicker({
  ticket,
}: {
  ticket: Pick<
    TicketAmount,
    'durations' | 'rung' | 'clock' | 'now' | 'chooseDuration' | 'chooseClock'
  >;
}) {
  const { durations, clock, now, chooseDuration: onSelect, chooseClock: onClock } = ticket;
  const selected = ticket.rung?.seconds ?? null;
  const { t } = useTranslation();
  const { lang } = useFormat();
  const label = useDurationLabel();
  // The chart picks its candle interval from it (chart-view.ts).
  useReportTicketDuration(selected);
  return (
    <fieldset className="ticket__durations">
      {/* Read out, not shown: the chips say it (a legend itself does not clip well). */}
      <legend className="ticket__legend">
        <span className="visually-hidden">
          {t('orders.ticket.duration')} · {t('orders.ticket.rate')}
        </span>
      </legend>
      <div className="ticket__duration-list">
        {durations.map((d) => (
          <button
            key={d.seconds}
            type="button"
            className="ticket__duration"
            aria-pressed={clock === null && d.seconds === selected}
            data-testid={`duration-${d.seconds}`}
            onClick={() => onSelect(d.seconds)}
          >
            <span className="ticket__duration-time">{label(d.seconds)}</span>
            <span className="ticket__duration-rate num">{formatRate(d.rate, lang)}</span>
          </button>
        ))}
        {clockExpiries.map((expiry) => {
          const terms = clockTerms(durations, expiry, now);
          const at = formatClock(terms.expiresAt, lang);
          const left = Math.max(0, Math.floor(terms.leftMs / 1000));
          return (
            <button
              key={expiry}
              type="button"
              className="ticket__duration ticket__duration--clock"
              aria-pressed={clock === expiry}
              disabled={!terms.rung}
              data-testid={`expiry-${expiry}`}
              onClick={() => onClock(expiry)}
            >
              {/* Read out whole ("Ends at 14:03, 42 s left"); the chip shows the time. */}
              <span className="visually-hidden" data-testid={`expiry-label-${expiry}`}>
                {t('orders.ticket.endsAt', { time: at, seconds: left })}
              </span>
              <span className="ticket__duration-time num" aria-hidden="true">
                {at}
              </span>
              <span className="ticket__duration-rate num">
                {terms.rung ? formatRate(terms.rung.rate, lang) : '—'}
              </span>
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}
