import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Direction } from '@shared/orders/model';
import { useBackCloses } from '@client/components/back-closes';
import { Svg } from '@client/components/icons';
import { useDurationLabel } from '@client/components/orders/useDurationLabel';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { useFullscreenSlot } from './fullscreen-slot';
import type { TicketAmount } from './useTicketAmount';
import './fullscreen.css';

/**
 * The chart's full-screen button (44 px, at the end of the chart's tool row), and in the mode
 * the button that leaves it, in the same place.
 */
export function FullscreenToggle({
  full,
  onEnter,
  onLeave,
}: {
  full: boolean;
  onEnter: () => void;
  onLeave: () => void;
}) {
  const { t } = useTranslation();
  return full ? (
    <button
      type="button"
      className="chart-full__toggle"
      aria-label={t('market.fullscreen.exit')}
      title={t('market.fullscreen.exit')}
      data-testid="chart-fullscreen-exit"
      onClick={onLeave}
    >
      <Svg>
        <path d="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" />
      </Svg>
    </button>
  ) : (
    <button
      type="button"
      className="chart-full__toggle"
      aria-label={t('market.fullscreen.enter')}
      title={t('market.fullscreen.enter')}
      data-testid="chart-fullscreen"
      onClick={onEnter}
    >
      <Svg>
        <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
      </Svg>
    </button>
  );
}

/** While the chart fills the screen, the phone's Back leaves the mode (not the page). */
export function FullscreenBack({ onLeave }: { onLeave: () => void }) {
  useBackCloses(onLeave);
  return null;
}

/**
 * The ticket's Buy up / Buy down in the full-screen chart's bottom bar, with the duration and
 * the amount the ticket holds now. Drawn by the ticket itself (TicketForm) into the bar, so a
 * tap is the ticket's own (checked, confirmed unless the trader skips it, placed once).
 */
export function FullscreenBuy({
  ticket,
  order,
  tradable,
}: {
  ticket: Pick<TicketAmount, 'rung' | 'amount' | 'invalid' | 'problem'>;
  order: { busy: boolean; buy: (direction: Direction) => void };
  tradable: boolean;
}) {
  const slot = useFullscreenSlot();
  const { t } = useTranslation();
  const { lang } = useFormat();
  const durationLabel = useDurationLabel();
  if (!slot) return null;
  const seconds = ticket.rung?.seconds ?? null;
  // The amount as the ticket would buy it: only once it is valid.
  const amount = ticket.invalid === null ? ticket.amount : null;
  const problem = ticket.problem ?? ticket.invalid;
  const disabled = !tradable || ticket.invalid !== null || order.busy;
  return createPortal(
    <div className="chart-full__buy" data-testid="fullscreen-ticket">
      <p className="chart-full__choice" data-testid="fullscreen-choice">
        <span className="num">{seconds === null ? '—' : durationLabel(seconds)}</span>
        <span aria-hidden="true"> · </span>
        <span className="num">{amount === null ? '—' : formatMoney(amount, lang)}</span>
        {problem && (
          <span className="chart-full__problem" role="alert">
            {problem}
          </span>
        )}
      </p>
      <button
        type="button"
        className="button ticket__buy-up"
        data-testid="fullscreen-buy-up"
        disabled={disabled}
        onClick={() => order.buy('up')}
      >
        <span aria-hidden="true">▲</span> {t('orders.ticket.buyUp')}
      </button>
      <button
        type="button"
        className="button ticket__buy-down"
        data-testid="fullscreen-buy-down"
        disabled={disabled}
        onClick={() => order.buy('down')}
      >
        <span aria-hidden="true">▼</span> {t('orders.ticket.buyDown')}
      </button>
    </div>,
    slot,
  );
}
