import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { amountToMinor, minorToDecimal, sanitizeAmountInput } from '@shared/amount-input';
import { savingsLimits, type SavingsOverview } from '@shared/savings/model';
import { ApiError } from '@client/api/client';
import { transferSavings } from '@client/api/savings';
import { errorText } from '@client/components/error-text';
import { showToast } from '@client/state';
import { useSavingsFormat } from './savings-format';

export type TransferDirection = 'in' | 'out';

/** A fresh Idempotency-Key; getRandomValues works outside secure contexts too (plain http). */
function newKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `sav-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The transfer form's state: the direction, the typed amount, the problem to show, and the
 * submission. The Idempotency-Key is kept while the same transfer may be sent again (its answer
 * was lost) and dropped as soon as the direction or the amount changes.
 */
export function useSavingsTransfer(
  overview: SavingsOverview,
  available: number | null,
  onDone: () => void,
) {
  const { t } = useTranslation();
  const format = useSavingsFormat();
  const [direction, setDirection] = useState<TransferDirection>('in');
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = useRef<string | null>(null);

  const remaining = direction === 'in' ? overview.inRemainingToday : overview.outRemainingToday;
  const most = direction === 'in' ? available : overview.total;

  const choose = (next: TransferDirection) => {
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

  return { direction, amount, problem, busy, remaining, most, choose, type, fillAll, submit };
}
