import { useTranslation } from 'react-i18next';
import type { DurationRate } from '@shared/product';
import { formatRate } from '@client/components/orders/format';
import { useDurationLabel } from '@client/components/orders/useDurationLabel';
import { useFormat } from '@client/i18n/useFormat';

/** The product's durations, each with its earnings rate; one is chosen. */
export function DurationPicker({
  durations,
  selected,
  onSelect,
}: {
  durations: readonly DurationRate[];
  selected: number | null;
  onSelect: (seconds: number) => void;
}) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const label = useDurationLabel();
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
            aria-pressed={d.seconds === selected}
            data-testid={`duration-${d.seconds}`}
            onClick={() => onSelect(d.seconds)}
          >
            <span className="ticket__duration-time">{label(d.seconds)}</span>
            <span className="ticket__duration-rate num">{formatRate(d.rate, lang)}</span>
          </button>
        ))}
      </div>
    </fieldset>
  );
}
