import { useTranslation } from 'react-i18next';
import type { Direction } from '@shared/orders/model';
import type { Estimate } from '@client/components/orders/order-math';
import { useDurationLabel } from '@client/components/orders/useDurationLabel';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { MARKET_NOTICE_ID } from './MarketNotice';
import type { RepeatOrder } from './quick-ticket';

/** Money in the ticket's language (a dash while unknown). */
function useMoneyText() {
  const { lang } = useFormat();
  return (minor: number | null) => formatMoney(minor, lang);
}

/**
 * "Repeat last order" among the quick amounts: the arrow and the amount on screen, the whole
 * order (direction, duration) for screen readers.
 */
export function RepeatChip({
  lastOrder,
  disabled,
  onRepeat,
}: {
  lastOrder: RepeatOrder;
  disabled: boolean;
  onRepeat: () => void;
}) {
  const { t } = useTranslation();
  const money = useMoneyText();
  const durationLabel = useDurationLabel();
  return (
    <button
      type="button"
      className={`ticket__chip ticket__repeat ticket__repeat--${lastOrder.direction}`}
      data-testid="repeat-last"
      disabled={disabled}
      onClick={onRepeat}
    >
      <span className="visually-hidden">{t('orders.ticket.repeat')}: </span>
      <span className="ticket__repeat-short" aria-hidden="true">
        ↻ {lastOrder.direction === 'up' ? '▲' : '▼'}
      </span>{' '}
      <span className="num">{money(lastOrder.amount)}</span>
      <span className="visually-hidden">
        {' '}
        · {lastOrder.direction === 'up'
          ? t('orders.ticket.buyUp')
          : t('orders.ticket.buyDown')} · {durationLabel(lastOrder.duration)}
      </span>
    </button>
  );
}

/** The estimate row: the profit and the payout if the order wins (dashes until both are set). */
export function TicketEstimate({ guess }: { guess: Estimate | null }) {
  const { t } = useTranslation();
  const money = useMoneyText();
  return (
    <dl className="ticket__estimate" data-testid="estimate">
      <div>
        <dt>{t('orders.ticket.estimate')}</dt>
        <dd className="num" data-testid="estimate-profit">
          {money(guess?.profit ?? null)}
        </dd>
      </div>
      <div>
        <dt>{t('orders.ticket.payout')}</dt>
        <dd className="num" data-testid="estimate-payout">
          {money(guess?.payout ?? null)}
        </dd>
      </div>
    </dl>
  );
}

/**
 * Buy up and buy down; while the market is closed they point at its notice, and while the amount
 * is `blocked` (invalid as typed) at the message under it that says why (#ticket-problem).
 */
export function BuyButtons({
  tradable,
  blocked = false,
  onBuy,
}: {
  tradable: boolean;
  blocked?: boolean;
  onBuy: (direction: Direction) => void;
}) {
  const { t } = useTranslation();
  const describedBy = !tradable ? MARKET_NOTICE_ID : blocked ? 'ticket-problem' : undefined;
  return (
    <div className="ticket__buy">
      <button
        type="button"
        className="button ticket__buy-up"
        data-testid="buy-up"
        disabled={!tradable || blocked}
        aria-describedby={describedBy}
        onClick={() => onBuy('up')}
      >
        <span aria-hidden="true">▲</span> {t('orders.ticket.buyUp')}
      </button>
      <button
        type="button"
        className="button ticket__buy-down"
        data-testid="buy-down"
        disabled={!tradable || blocked}
        aria-describedby={describedBy}
        onClick={() => onBuy('down')}
      >
        <span aria-hidden="true">▼</span> {t('orders.ticket.buyDown')}
      </button>
    </div>
  );
}
