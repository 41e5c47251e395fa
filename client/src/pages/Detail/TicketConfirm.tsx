import { useTranslation } from 'react-i18next';
import type { Direction, TradeMode } from '@shared/orders/model';
import type { DurationRate } from '@shared/product';
import { DirectionLabel } from '@client/components/orders/DirectionLabel';
import { formatRate } from '@client/components/orders/format';
import { OrderConfirmDialog } from '@client/components/orders/OrderConfirmDialog';
import type { Estimate } from '@client/components/orders/order-math';
import { useDurationLabel } from '@client/components/orders/useDurationLabel';
import { formatClock, formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';

/**
 * The ticket's confirmation: the whole order as it will be sent (mode, product, direction,
 * amount, duration, rate, payout); after an unknown outcome, the note and a retry.
 */
export function TicketConfirm({
  mode,
  productName,
  direction,
  amount,
  rung,
  endsAt,
  guess,
  retryNote,
  busy,
  onConfirm,
  onCancel,
}: {
  mode: TradeMode;
  productName: string;
  direction: Direction;
  amount: number;
  rung: DurationRate;
  /** An end at a clock time (epoch ms), shown instead of the band's duration. */
  endsAt: number | null;
  guess: Estimate;
  retryNote: string | null;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const durationLabel = useDurationLabel();
  const money = (minor: number | null) => formatMoney(minor, lang);
  return (
    <OrderConfirmDialog
      title={t('orders.ticket.confirmTitle')}
      rows={[
        {
          label: t('orders.practice.switchLabel'),
          value: t(`orders.practice.${mode}`),
          testId: 'confirm-mode',
        },
        { label: t('orders.ticket.product'), value: productName },
        {
          label: t('orders.ticket.direction'),
          value: <DirectionLabel direction={direction} />,
          testId: 'confirm-direction',
        },
        { label: t('orders.ticket.amount'), value: money(amount), testId: 'confirm-amount' },
        {
          label: t('orders.ticket.duration'),
          value:
            endsAt === null
              ? durationLabel(rung.seconds)
              : t('orders.ticket.endsAtShort', { time: formatClock(endsAt, lang) }),
          testId: 'confirm-duration',
        },
        {
          label: t('orders.ticket.rate'),
          value: formatRate(rung.rate, lang),
          testId: 'confirm-rate',
        },
        { label: t('orders.ticket.payout'), value: money(guess.payout) },
      ]}
      // The price on screen is not the entry: nobody may buy a move already seen.
      note={t('orders.ticket.entryNote')}
      problem={retryNote}
      confirmLabel={retryNote ? t('common.retry') : t('common.confirm')}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
