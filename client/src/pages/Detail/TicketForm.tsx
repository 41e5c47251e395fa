import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Product } from '@shared/product';
import { RiskNote } from '@client/components/Trust';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { useAccountSummary, useAppInfo, useTradeMode } from '@client/state';
import { paths } from '@client/app/route-table';
import { AmountControls } from './AmountControls';
import { useDockHeight } from './dock-height';
import { DurationPicker } from './DurationPicker';
import type { RepeatOrder } from './quick-ticket';
import { TicketConfirm } from './TicketConfirm';
import { BuyButtons, RepeatChip, TicketEstimate } from './TicketParts';
import { PracticeResetDialog, TicketModeHints } from './TicketPractice';
import { useTicketAmount } from './useTicketAmount';
import { useTicketOrder } from './useTicketOrder';

const POSITIONS_PATH = `${paths.orders}?tab=positions`;

/**
 * The ticket of a signed-in user. Its working part (duration, amount, estimate, buy up / buy
 * down) is docked at the bottom of the screen, so a trade never needs a scroll; the mode, the
 * balance and the hints stay in the page. `lastOrder` is the user's newest order on this product,
 * for "repeat last order".
 */
export function TicketForm({
  product,
  tradable,
  lastOrder = null,
  children,
}: {
  product: Product;
  tradable: boolean;
  lastOrder?: RepeatOrder | null;
  /** In the page under the docked part (the positions strip). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const currency = useAppInfo()?.currency ?? '';
  const summary = useAccountSummary();
  const { mode, newcomer } = useTradeMode();
  const practice = mode === 'practice';
  // Each mode stakes its own money: the practice balance, or the real available balance.
  const available =
    (practice ? summary.summary?.practice.available : summary.summary?.available) ?? null;
  const [resetting, setResetting] = useState(false);
  const money = (minor: number | null) => formatMoney(minor, lang);
  const dockRef = useRef<HTMLDivElement>(null);
  const dockHeight = useDockHeight(dockRef);
  const ticket = useTicketAmount(product, available);
  const { bounds, rung, amount, guess, problem } = ticket;
  const order = useTicketOrder({ product, mode, available, lastOrder, ticket });

  return (
    <>
      <TicketModeHints
        practice={practice}
        newcomer={newcomer}
        available={available}
        onReset={() => setResetting(true)}
      />
      {children}
      <p className="ticket__available">
        <span>{practice ? t('orders.practice.balance') : t('orders.ticket.available')}</span>
        <span className="num" data-testid="available-balance">
          {money(available)}
        </span>
      </p>
      <Link className="ticket__positions" to={POSITIONS_PATH} data-testid="view-positions">
        {t('orders.ticket.viewPositions')} ›
      </Link>
      {/* Keeps the page's last lines scrollable clear of the docked part. */}
      <div aria-hidden="true" style={{ height: dockHeight }} />
      <div
        ref={dockRef}
        className={practice ? 'ticket-dock ticket-dock--practice' : 'ticket-dock'}
        data-testid="ticket-dock"
      >
        <DurationPicker
          durations={ticket.durations}
          selected={rung?.seconds ?? null}
          onSelect={ticket.chooseDuration}
        />
        <AmountControls
          input={ticket.input}
          amount={amount}
          bounds={bounds}
          available={available}
          currency={currency}
          problem={problem}
          onInput={ticket.onAmount}
          onAmount={ticket.setAmount}
          onMax={ticket.fillMax}
        >
          {lastOrder && order.repeatRung && (
            <RepeatChip
              lastOrder={lastOrder}
              disabled={!tradable || order.busy}
              onRepeat={order.repeat}
            />
          )}
        </AmountControls>
        <TicketEstimate guess={guess} />
        <span className="visually-hidden num" id="ticket-bounds">
          {t('orders.ticket.bounds', {
            min: money(bounds.minStake),
            max: money(bounds.maxStake),
          })}
        </span>
        {problem && (
          <p
            className="ticket__problem"
            id="ticket-problem"
            role="alert"
            data-testid="ticket-error"
          >
            {problem}
          </p>
        )}
        <BuyButtons tradable={tradable} onBuy={(direction) => order.buy(direction)} />
        <RiskNote line />
      </div>
      {order.confirming && rung && amount !== null && guess && (
        <TicketConfirm
          mode={mode}
          productName={product.name}
          direction={order.confirming}
          amount={amount}
          rung={rung}
          guess={guess}
          retryNote={order.retryNote}
          busy={order.busy}
          onConfirm={() => void order.confirm()}
          onCancel={order.cancel}
        />
      )}
      {resetting && (
        <PracticeResetDialog
          resetTo={summary.summary?.practice.resetTo ?? null}
          onClose={() => setResetting(false)}
        />
      )}
    </>
  );
}
