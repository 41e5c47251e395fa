import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { amountToMinor, minorToDecimal, sanitizeAmountInput } from '@shared/amount-input';
import type { DurationRate, Product } from '@shared/product';
import { estimate } from '@client/components/orders/order-math';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { loadChoice, maxAmount } from './quick-ticket';
import { inputMax, pickDuration, type StakeBounds } from './ticket';

/**
 * The ticket's duration, amount and estimate, and the problem shown under them: what the trader
 * picks before buying. Kept apart from the purchase (useTicketOrder) so each reads on its own.
 */
export function useTicketAmount(product: Product, available: number | null) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const bounds: StakeBounds = { minStake: product.minStake, maxStake: product.maxStake };
  const money = (minor: number | null) => formatMoney(minor, lang);

  const [durations, setDurations] = useState<DurationRate[]>(product.durations);
  // The duration and amount last used on this product come back (kept on this device).
  const [remembered] = useState(() => loadChoice(product.id));
  const [chosen, setChosen] = useState<number | null>(remembered?.duration ?? null);
  const rung = pickDuration(durations, chosen);
  const [input, setInput] = useState(() =>
    remembered && remembered.amount >= bounds.minStake && remembered.amount <= bounds.maxStake
      ? minorToDecimal(remembered.amount)
      : '',
  );
  const [problem, setProblem] = useState<string | null>(null);

  const amount = amountToMinor(input);
  const guess = rung && amount ? estimate(amount, rung.rate) : null;
  const outOfRange = () =>
    t('orders.ticket.amountOutOfRange', {
      min: money(bounds.minStake),
      max: money(bounds.maxStake),
    });

  const onAmount = (raw: string) => {
    setInput(sanitizeAmountInput(raw, inputMax(bounds)));
    setProblem(null);
  };

  /** "Max": the most the balance and the product allow; the order is still confirmed. */
  const fillMax = () => {
    const max = maxAmount(available, bounds);
    if (max === null) {
      setProblem(available === null ? null : t('errors.INSUFFICIENT_BALANCE'));
      return;
    }
    setInput(minorToDecimal(max));
    setProblem(null);
  };
  const setAmount = (minor: number) => {
    setInput(minorToDecimal(minor));
    setProblem(null);
  };
  const chooseDuration = (seconds: number) => {
    setChosen(seconds);
    setProblem(null);
  };

  return {
    bounds,
    durations,
    setDurations,
    rung,
    setChosen,
    input,
    setInput,
    amount,
    guess,
    problem,
    setProblem,
    outOfRange,
    onAmount,
    fillMax,
    setAmount,
    chooseDuration,
  };
}

export type TicketAmount = ReturnType<typeof useTicketAmount>;
