import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  amountToMinor,
  checkTypedAmount,
  cleanAmountInput,
  minorToDecimal,
} from '@shared/amount-input';
import type { DurationRate, Product } from '@shared/product';
import { amountProblemText } from '@client/components/form/amount-problem';
import { estimate } from '@client/components/orders/order-math';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { loadChoice, maxAmount } from './quick-ticket';
import { pickDuration, type StakeBounds } from './ticket';
import { clockTerms, type ClockExpiry } from '@shared/orders/clock-expiry';
import { useServerSecond } from './useServerSecond';

/**
 * The ticket's duration, amount and estimate, and the problem shown under them: what the trader
 * picks before buying. Kept apart from the purchase (useTicketOrder) so each reads on its own.
 * The amount is checked as it is typed against the product's stake bounds and the balance of the
 * mode (issue 37): `invalid` says why in words, the buttons wait for a valid amount, and the
 * estimate shows only for one. Nothing typed is clamped.
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
  // Or an end at a clock time (this minute, the next): its band follows the time left.
  const [clock, setClock] = useState<ClockExpiry | null>(null);
  const now = useServerSecond();
  const clockChoice = clock ? clockTerms(durations, clock, now) : null;
  const rung = clockChoice ? clockChoice.rung : pickDuration(durations, chosen);
  const [input, setInput] = useState(() =>
    remembered && remembered.amount >= bounds.minStake && remembered.amount <= bounds.maxStake
      ? minorToDecimal(remembered.amount)
      : '',
  );
  const [problem, setProblem] = useState<string | null>(null);

  const check = checkTypedAmount(input, {
    min: bounds.minStake,
    max: bounds.maxStake,
    balance: available,
  });
  const valid = check.state === 'valid' ? check.amount : null;
  const amount = valid ?? amountToMinor(input);
  const guess = rung && valid ? estimate(valid, rung.rate) : null;
  const invalid = amountProblemText(t, check, money);
  const outOfRange = () =>
    t('orders.ticket.amountOutOfRange', {
      min: money(bounds.minStake),
      max: money(bounds.maxStake),
    });

  const onAmount = (raw: string) => {
    setInput(cleanAmountInput(raw));
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
    setClock(null);
    setProblem(null);
  };
  const chooseClock = (expiry: ClockExpiry) => {
    setClock(expiry);
    setProblem(null);
  };

  return {
    bounds,
    durations,
    setDurations,
    rung,
    setChosen: (seconds: number) => {
      setChosen(seconds);
      setClock(null);
    },
    clock,
    clockChoice,
    now,
    input,
    setInput,
    amount,
    guess,
    invalid,
    problem,
    setProblem,
    outOfRange,
    onAmount,
    fillMax,
    setAmount,
    chooseDuration,
    chooseClock,
  };
}

export type TicketAmount = ReturnType<typeof useTicketAmount>;
