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
import { FullscreenBuy } from './FullscreenChart';
import type { RepeatOrder } from './quick-ticket';
import { TicketConfirm } from './TicketConfirm';
import { BuyButtons, RepeatChip, TicketEstimate } from './TicketParts';
import { PracticeResetDialog, TicketModeHints } from './TicketPractice';
import { useTicketAmount } from './useTicketAmount';
import { useTicketOrder } from './useTicketOrder';

const POSITIONS_PATH = `${paths.orders}?tab=positions`;

/**
 * Under the amount: a refusal or a missing choice (after a tap) at once, else what is wrong with
 * the amount as it is typed (issue 37), told politely while typing.
 */
function TicketProblem({ refusal, invalid }: { refusal: string | null; invalid: string | null }) {
  const shown = refusal ?? invalid;
  if (!shown) return null;
  return (
    <p
      className="ticket__problem"
      id="ticket-problem"
      role={refusal ? 'alert' : 'status'}
      data-testid={refusal ? 'ticket-error' : 'amount-problem'}
    >
      {shown}
    </p>
  );
}

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
  const { bounds, rung, amount, guess, problem, invalid } = ticket;
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
        {/* The balance in the dock's head: in sight whatever the scroll (issue 37). */}
        <p className="ticket__available">
          <span>{practice ? t('orders.practice.balance') : t('orders.ticket.available')}</span>
          <span className="num" data-testid="available-balance">
            {money(available)}
          </span>
        </p>
        <DurationPicker ticket={ticket} />
        <AmountControls
          input={ticket.input}
          amount={amount}
          bounds={bounds}
          available={available}
          currency={currency}
          problem={problem ?? invalid}
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
        <TicketProblem refusal={problem} invalid={invalid} />
        <BuyButtons
          tradable={tradable}
          blocked={invalid !== null}
          onBuy={(direction) => order.buy(direction)}
        />
        <RiskNote line />
      </div>
      {/* The same buy, in the full-screen chart's bar while it shows (FullscreenChart.tsx). */}
      <FullscreenBuy ticket={ticket} order={order} tradable={tradable} />
      {order.confirming && rung && amount !== null && guess && (
        <TicketConfirm
          mode={mode}
          productName={product.name}
          direction={order.confirming}
          amount={amount}
          rung={rung}
          endsAt={ticket.clockChoice?.expiresAt ?? null}
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
