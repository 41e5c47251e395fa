import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { quickAmounts, stepAmount } from './quick-ticket';
import type { StakeBounds } from './ticket';

/**
 * The docked ticket's amount: − / the field / + / Max on one row, then quick amounts within the
 * product's bounds and the balance (and whatever the ticket adds there: "repeat last order").
 */
export function AmountControls({
  input,
  amount,
  bounds,
  available,
  currency,
  problem,
  onInput,
  onAmount,
  onMax,
  children,
}: {
  /** What the field shows. */
  input: string;
  /** The same in minor units (null while incomplete). */
  amount: number | null;
  bounds: StakeBounds;
  available: number | null;
  currency: string;
  problem: string | null;
  onInput: (raw: string) => void;
  onAmount: (minor: number) => void;
  onMax: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  // Three when the repeat chip joins them: the row fits a 360 px phone without scrolling.
  const quick = quickAmounts(bounds, available, children ? 3 : 4);
  return (
    <>
      <div className="ticket__amount">
        <label className="visually-hidden" htmlFor="ticket-amount">
          {t('orders.ticket.amount')}
          {currency && ` (${currency})`}
        </label>
        <button
          type="button"
          className="ticket__step"
          data-testid="amount-less"
          aria-label={t('orders.ticket.less')}
          onClick={() => onAmount(stepAmount(amount, -1, bounds))}
        >
          <span aria-hidden="true">−</span>
        </button>
        <input
          id="ticket-amount"
          className="ticket__input num"
          data-testid="amount"
          inputMode="decimal"
          autoComplete="off"
          enterKeyHint="done"
          placeholder={t('orders.ticket.enterAmount')}
          value={input}
          aria-describedby={problem ? 'ticket-bounds ticket-problem' : 'ticket-bounds'}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => onInput(event.target.value)}
        />
        <button
          type="button"
          className="ticket__step"
          data-testid="amount-more"
          aria-label={t('orders.ticket.more')}
          onClick={() => onAmount(stepAmount(amount, 1, bounds))}
        >
          <span aria-hidden="true">+</span>
        </button>
        <button
          type="button"
          className="button button--secondary ticket__all"
          data-testid="place-all"
          title={t('orders.ticket.maxNote')}
          disabled={available === null}
          onClick={onMax}
        >
          {t('orders.ticket.max')}
        </button>
      </div>
      <div className="ticket__quick" role="group" aria-label={t('orders.ticket.quickAmounts')}>
        {quick.map((q) => (
          <button
            key={q}
            type="button"
            className="ticket__chip num"
            data-testid={`quick-${q}`}
            aria-pressed={amount === q}
            onClick={() => onAmount(q)}
          >
            {formatMoney(q, lang)}
          </button>
        ))}
        {children}
      </div>
    </>
  );
}
