import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { amountToMinor, minorToDecimal, sanitizeAmountInput } from '@shared/amount-input';
import { savingsLimits, type SavingsOverview } from '@shared/savings';
import { ApiError } from '@client/api/client';
import { transferSavings } from '@client/api/savings';
import { errorText } from '@client/components/error-text';
import { showToast } from '@client/state';
import { useSavingsFormat } from './savings-format';

type Direction = 'in' | 'out';

/** A fresh Idempotency-Key; getRandomValues works outside secure contexts too (plain http). */
function newKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `sav-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
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
  const [direction, setDirection] = useState<Direction>('in');
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = useRef<string | null>(null);

  const remaining = direction === 'in' ? overview.inRemainingToday : overview.outRemainingToday;
  const most = direction === 'in' ? available : overview.total;

  const choose = (next: Direction) => {
    setDirection(next);
    setProblem(null);
    key.current = null;
  };
  const type = (raw: string) => {
    setAmount(sanitizeAmountInput(raw));
    setProblem(null);
    key.current = null;
  };
  const fillAll = () => {
    if (most !== null && most >= savingsLimits.min)
      type(minorToDecimal(Math.min(most, savingsLimits.max)));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const minor = amountToMinor(amount);
    if (minor === null || minor < savingsLimits.min) {
      setProblem(t('savings.amountRequired', { min: format.money(savingsLimits.min) }));
      return;
    }
    key.current ??= newKey();
    setBusy(true);
    try {
      await transferSavings(direction, minor, key.current);
      key.current = null;
      setAmount('');
      setProblem(null);
      showToast(t(direction === 'in' ? 'savings.doneIn' : 'savings.doneOut'));
      onDone();
    } catch (err) {
      // A refusal is final: the next try is a new transfer. No answer: the same one again.
      if (err instanceof ApiError && err.status > 0) key.current = null;
      setProblem(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="savings-transfer" aria-label={t('savings.transferLabel')}>
      <div className="savings-switch" role="group" aria-label={t('savings.directionLabel')}>
        {(['in', 'out'] as const).map((d) => (
          <button
            key={d}
            type="button"
            className={`savings-switch__option${direction === d ? ' is-active' : ''}`}
            aria-pressed={direction === d}
            data-testid={`savings-${d}`}
            onClick={() => choose(d)}
          >
            {t(d === 'in' ? 'savings.transferIn' : 'savings.transferOut')}
          </button>
        ))}
      </div>
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
