import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { minorToDecimal } from '@shared/amount-input';
import type { Direction, TradeMode } from '@shared/orders/model';
import type { DurationRate, Product } from '@shared/product';
import { ApiError } from '@client/api/client';
import { getProduct } from '@client/api/market';
import { errorText } from '@client/components/error-text';
import { showToast } from '@client/state';
import { useSkipConfirm } from '@client/state/skip-confirm';
import { saveChoice, type RepeatOrder } from './quick-ticket';
import { checkAmount, pickDuration, refusalText } from './ticket';
import type { TicketAmount } from './useTicketAmount';
import { usePlaceOrder } from './usePlaceOrder';

/**
 * The ticket's purchase: buy up / buy down (checked, then confirmed in the dialog or at once
 * when the trader skips it), "repeat last order", and what comes back (placed, refused, or
 * unknown and safe to retry). `ticket` is the duration and amount (useTicketAmount).
 */
export function useTicketOrder({
  product,
  mode,
  available,
  lastOrder,
  ticket,
}: {
  product: Product;
  mode: TradeMode;
  available: number | null;
  lastOrder: RepeatOrder | null;
  ticket: TicketAmount;
}) {
  const { t } = useTranslation();
  const [skipConfirm] = useSkipConfirm();
  const [confirming, setConfirming] = useState<Direction | null>(null);
  const [retryNote, setRetryNote] = useState<string | null>(null);
  const { busy, place } = usePlaceOrder();
  const { bounds, durations, rung, amount, setProblem } = ticket;

  const repeatRung = lastOrder ? durations.find((d) => d.seconds === lastOrder.duration) : null;

  const buy = (direction: Direction, override?: { amount: string; duration: number }) => {
    // One order per tap: without the dialog, a second tap while the first is on its way waits.
    if (busy) return;
    const useRung = override ? pickDuration(durations, override.duration) : rung;
    const useInput = override?.amount ?? ticket.input;
    if (!useRung) {
      setProblem(
        t(ticket.clock && !override ? 'errors.EXPIRY_TOO_SOON' : 'errors.DURATION_INVALID'),
      );
      return;
    }
    const check = checkAmount(useInput, bounds, available);
    if (!check.ok) {
      setProblem(
        check.reason === 'empty'
          ? t('orders.ticket.enterAmount')
          : check.reason === 'outOfRange'
            ? ticket.outOfRange()
            : t('errors.INSUFFICIENT_BALANCE'),
      );
      return;
    }
    setProblem(null);
    setRetryNote(null);
    if (skipConfirm) void confirm(direction, useRung, check.amount);
    else setConfirming(direction);
  };

  const repeat = () => {
    if (!lastOrder) return;
    const amountText = minorToDecimal(lastOrder.amount);
    ticket.setChosen(lastOrder.duration);
    ticket.setInput(amountText);
    buy(lastOrder.direction, { amount: amountText, duration: lastOrder.duration });
  };

  const confirm = async (
    direction: Direction | null = confirming,
    useRung: DurationRate | null = rung,
    useAmount: number | null = amount,
  ) => {
    if (!direction || !useRung || useAmount === null) return;
    // An end at a clock time names its minute; the server finds the same band (clock-expiry.ts).
    const clock = useRung === ticket.rung ? ticket.clock : null;
    const result = await place({
      productId: product.id,
      direction,
      amount: useAmount,
      ...(clock ? { expiry: clock } : { duration: useRung.seconds }),
      // The rate on screen: if the server's has changed since, it refuses with RATE_CHANGED.
      rate: useRung.rate,
      mode,
    });
    if (result.kind === 'unknown') {
      const note = `${errorText(t, result.error)} ${t('orders.ticket.unknownOutcome')}`;
      // Without the dialog open (skip confirmation), open it now: it is where a retry is safe.
      setConfirming(direction);
      setRetryNote(note);
      return;
    }
    setConfirming(null);
    setRetryNote(null);
    if (result.kind === 'placed') {
      saveChoice(product.id, { duration: useRung.seconds, amount: useAmount });
      showToast(t('orders.ticket.purchaseSucceeded'));
      return;
    }
    setProblem(refusalText(t, result.error, ticket.outOfRange));
    if (result.error instanceof ApiError && result.error.code === 'RATE_CHANGED') {
      // Show the new rates, so the next confirmation is made against them.
      getProduct(product.id).then(
        (fresh) => ticket.setDurations(fresh.durations),
        () => undefined,
      );
    }
  };

  const cancel = () => {
    setConfirming(null);
    setRetryNote(null);
  };

  return { busy, confirming, retryNote, repeatRung, buy, repeat, confirm, cancel };
}
