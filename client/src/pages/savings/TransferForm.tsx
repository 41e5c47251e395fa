import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SavingsOverview } from '@shared/savings/model';
import { useSavingsFormat } from './savings-format';
import { useSavingsTransfer, type TransferDirection } from './useSavingsTransfer';

/** In or out: two toggle buttons, the chosen one pressed. */
function DirectionSwitch({
  direction,
  onChoose,
}: {
  direction: TransferDirection;
  onChoose: (direction: TransferDirection) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="savings-switch" role="group" aria-label={t('savings.directionLabel')}>
      {(['in', 'out'] as const).map((d) => (
        <button
          key={d}
          type="button"
          className={`savings-switch__option${direction === d ? ' is-active' : ''}`}
          aria-pressed={direction === d}
          data-testid={`savings-${d}`}
          onClick={() => onChoose(d)}
        >
          {t(d === 'in' ? 'savings.transferIn' : 'savings.transferOut')}
        </button>
      ))}
    </div>
  );
}

/** Today's remaining transfers each way (the spec's daily counts). */
function RemainingToday({ overview }: { overview: SavingsOverview }) {
  const { t } = useTranslation();
  const format = useSavingsFormat();
  return (
    <dl className="savings-remaining">
      <div>
        <dt>{t('savings.inRemaining')}</dt>
        <dd className="num" data-testid="in-remaining">
          {format.integer(overview.inRemainingToday)}
        </dd>
      </div>
      <div>
        <dt>{t('savings.outRemaining')}</dt>
        <dd className="num" data-testid="out-remaining">
          {format.integer(overview.outRemainingToday)}
        </dd>
      </div>
    </dl>
  );
}

/**
 * Transfer in (from the available balance) or out (back to it): the amount-input rule of the
 * spec, the most that can move, and today's remaining count. A transfer whose answer was lost
 * (network, timeout) is sent again with the same Idempotency-Key, so it happens once.
 */
export function TransferForm({
  overview,
  available,
  onDone,
}: {
  overview: SavingsOverview;
  /** The available balance; null while it loads. */
  available: number | null;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const format = useSavingsFormat();
  const inputId = useId();
  const { direction, amount, problem, busy, remaining, most, choose, type, fillAll, submit } =
    useSavingsTransfer(overview, available, onDone);

  return (
    <section className="savings-transfer" aria-label={t('savings.transferLabel')}>
      <DirectionSwitch direction={direction} onChoose={choose} />
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <div className={`field${problem ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor={inputId}>
            {t('savings.amount')}
          </label>
          <div className="savings-amount">
            <input
              id={inputId}
              className="field__input"
              data-testid="savings-amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder={t('savings.amountPlaceholder')}
              value={amount}
              aria-invalid={problem ? true : undefined}
              aria-describedby={`${inputId}-hint`}
              onChange={(e) => type(e.target.value)}
            />
            <button type="button" className="button button--secondary" onClick={fillAll}>
              {t('savings.all')}
            </button>
          </div>
          <p className="field__hint" id={`${inputId}-hint`}>
            {most === null
              ? t('common.loading')
              : t(direction === 'in' ? 'savings.available' : 'savings.inSavings', {
                  amount: format.money(most),
                })}
          </p>
        </div>
        <RemainingToday overview={overview} />
        {problem && (
          <p className="form-error" role="alert" data-testid="savings-error">
            {problem}
          </p>
        )}
        <button
          type="submit"
          className="button button--block"
          data-testid="savings-submit"
          disabled={busy || remaining === 0}
          aria-busy={busy || undefined}
        >
          {remaining === 0
            ? t('savings.noneLeft')
            : t(direction === 'in' ? 'savings.submitIn' : 'savings.submitOut')}
        </button>
      </form>
    </section>
  );
}
