import { useRef, useState, type ReactNode } from 'react';
import { resetPractice } from '@client/api/account';
import { ConfirmDialog } from '@client/components/ConfirmDialog';
import { DepositLink, PracticeBand, TradeModeSwitch } from '@client/components/orders/TradeMode';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { amountToMinor, minorToDecimal, sanitizeAmountInput } from '@shared/amount-input';
import type { Direction } from '@shared/orders';
import type { DurationRate, Product } from '@shared/product';
import { ApiError } from '@client/api/client';
import { getProduct } from '@client/api/market';
import { errorText } from '@client/components/error-text';
import { DirectionLabel } from '@client/components/orders/DirectionLabel';
import { formatRate } from '@client/components/orders/format';
import { formatMoney } from '@client/i18n/format';
import { OrderConfirmDialog } from '@client/components/orders/OrderConfirmDialog';
import { estimate } from '@client/components/orders/order-math';
import { useDurationLabel } from '@client/components/orders/useDurationLabel';
import { useFormat } from '@client/i18n/useFormat';
import { RiskNote } from '@client/components/Trust';
import { showToast, useAccountSummary, useAppInfo, useTradeMode } from '@client/state';
import { DurationPicker } from './DurationPicker';
import { MARKET_NOTICE_ID } from './MarketNotice';
import { checkAmount, inputMax, pickDuration, refusalText } from './ticket';
import { usePlaceOrder } from './usePlaceOrder';
import { paths } from '@client/app/route-table';
import { useSkipConfirm } from '@client/state/skip-confirm';
import { AmountControls } from './AmountControls';
import { useDockHeight } from './dock-height';
import { loadChoice, maxAmount, saveChoice, type RepeatOrder } from './quick-ticket';

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
  const [resetBusy, setResetBusy] = useState(false);
  const durationLabel = useDurationLabel();
  const bounds = { minStake: product.minStake, maxStake: product.maxStake };
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
  const [skipConfirm] = useSkipConfirm();
  const dockRef = useRef<HTMLDivElement>(null);
  const dockHeight = useDockHeight(dockRef);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Direction | null>(null);
  const [retryNote, setRetryNote] = useState<string | null>(null);
  const { busy, place } = usePlaceOrder();

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
  const repeatRung = lastOrder ? durations.find((d) => d.seconds === lastOrder.duration) : null;

  const buy = (direction: Direction, override?: { amount: string; duration: number }) => {
    // One order per tap: without the dialog, a second tap while the first is on its way waits.
    if (busy) return;
    const useRung = override ? pickDuration(durations, override.duration) : rung;
    const useInput = override?.amount ?? input;
    if (!useRung) {
      setProblem(t('errors.DURATION_INVALID'));
      return;
    }
    const check = checkAmount(useInput, bounds, available);
    if (!check.ok) {
      setProblem(
        check.reason === 'empty'
          ? t('orders.ticket.enterAmount')
          : check.reason === 'outOfRange'
            ? outOfRange()
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
    setChosen(lastOrder.duration);
    setInput(amountText);
    buy(lastOrder.direction, { amount: amountText, duration: lastOrder.duration });
  };

  const confirm = async (
    direction: Direction | null = confirming,
    useRung: DurationRate | null = rung,
    useAmount: number | null = amount,
  ) => {
    if (!direction || !useRung || useAmount === null) return;
    const result = await place({
      productId: product.id,
      direction,
      amount: useAmount,
      duration: useRung.seconds,
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
    setProblem(refusalText(t, result.error, outOfRange));
    if (result.error instanceof ApiError && result.error.code === 'RATE_CHANGED') {
      // Show the new rates, so the next confirmation is made against them.
      getProduct(product.id).then(
        (fresh) => setDurations(fresh.durations),
        () => undefined,
      );
    }
  };

  const reset = async () => {
    setResetBusy(true);
    try {
      const done = await resetPractice();
      showToast(t('orders.practice.resetDone', { amount: money(done.practiceAvailable) }));
    } catch (error) {
      showToast(errorText(t, error));
    } finally {
      setResetBusy(false);
      setResetting(false);
    }
  };

  return (
    <>
      <TradeModeSwitch place="ticket" />
      {practice && (
        <PracticeBand testId="ticket-practice-band">
          <button
            type="button"
            className="practice-reset"
            data-testid="practice-reset"
            onClick={() => setResetting(true)}
          >
            {t('orders.practice.reset')}
          </button>
        </PracticeBand>
      )}
      {practice && newcomer && (
        <div className="mode-hint" data-testid="newcomer-hint">
          <p>{t('orders.practice.newcomerHint')}</p>
          <DepositLink />
        </div>
      )}
      {!practice && available === 0 && (
        <div className="mode-hint" role="status" data-testid="deposit-needed">
          <p>{t('orders.practice.depositNeeded', { amount: money(0) })}</p>
          <DepositLink />
        </div>
      )}
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
          durations={durations}
          selected={rung?.seconds ?? null}
          onSelect={(seconds) => {
            setChosen(seconds);
            setProblem(null);
          }}
        />
        <AmountControls
          input={input}
          amount={amount}
          bounds={bounds}
          available={available}
          currency={currency}
          problem={problem}
          onInput={onAmount}
          onAmount={setAmount}
          onMax={fillMax}
        >
          {lastOrder && repeatRung && (
            <button
              type="button"
              className={`ticket__chip ticket__repeat ticket__repeat--${lastOrder.direction}`}
              data-testid="repeat-last"
              disabled={!tradable || busy}
              onClick={repeat}
            >
              <span className="visually-hidden">{t('orders.ticket.repeat')}: </span>
              <span className="ticket__repeat-short" aria-hidden="true">
                ↻ {lastOrder.direction === 'up' ? '▲' : '▼'}
              </span>{' '}
              <span className="num">{money(lastOrder.amount)}</span>
              <span className="visually-hidden">
                {' '}
                ·{' '}
                {lastOrder.direction === 'up'
                  ? t('orders.ticket.buyUp')
                  : t('orders.ticket.buyDown')}{' '}
                · {durationLabel(lastOrder.duration)}
              </span>
            </button>
          )}
        </AmountControls>
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
        <div className="ticket__buy">
          <button
            type="button"
            className="button ticket__buy-up"
            data-testid="buy-up"
            disabled={!tradable}
            aria-describedby={tradable ? undefined : MARKET_NOTICE_ID}
            onClick={() => buy('up')}
          >
            <span aria-hidden="true">▲</span> {t('orders.ticket.buyUp')}
          </button>
          <button
            type="button"
            className="button ticket__buy-down"
            data-testid="buy-down"
            disabled={!tradable}
            aria-describedby={tradable ? undefined : MARKET_NOTICE_ID}
            onClick={() => buy('down')}
          >
            <span aria-hidden="true">▼</span> {t('orders.ticket.buyDown')}
          </button>
        </div>
        <RiskNote line />
      </div>
      {confirming && rung && amount !== null && guess && (
        <OrderConfirmDialog
          title={t('orders.ticket.confirmTitle')}
          rows={[
            {
              label: t('orders.practice.switchLabel'),
              value: t(`orders.practice.${mode}`),
              testId: 'confirm-mode',
            },
            { label: t('orders.ticket.product'), value: product.name },
            {
              label: t('orders.ticket.direction'),
              value: <DirectionLabel direction={confirming} />,
              testId: 'confirm-direction',
            },
            { label: t('orders.ticket.amount'), value: money(amount), testId: 'confirm-amount' },
            {
              label: t('orders.ticket.duration'),
              value: durationLabel(rung.seconds),
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
          onConfirm={() => void confirm()}
          onCancel={() => {
            setConfirming(null);
            setRetryNote(null);
          }}
        />
      )}
      {resetting && (
        <ConfirmDialog
          title={t('orders.practice.reset')}
          message={t('orders.practice.resetConfirm', {
            amount: money(summary.summary?.practice.resetTo ?? null),
          })}
          busy={resetBusy}
          onConfirm={() => void reset()}
          onCancel={() => setResetting(false)}
        />
      )}
    </>
  );
}
