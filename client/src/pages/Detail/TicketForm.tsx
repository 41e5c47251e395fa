import { useState } from 'react';
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
import { showToast, useAccountSummary, useAppInfo, useTradeMode } from '@client/state';
import { DurationPicker } from './DurationPicker';
import { MARKET_NOTICE_ID } from './MarketNotice';
import { checkAmount, inputMax, pickDuration, placeAllAmount } from './ticket';
import { usePlaceOrder } from './usePlaceOrder';
import { paths } from '@client/app/route-table';

const POSITIONS_PATH = `${paths.orders}?tab=positions`;

/** The ticket of a signed-in user: duration, amount, estimate, buy up / buy down, confirmation. */
export function TicketForm({ product, tradable }: { product: Product; tradable: boolean }) {
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
  const [chosen, setChosen] = useState<number | null>(null);
  const rung = pickDuration(durations, chosen);
  const [input, setInput] = useState('');
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

  const refusalText = (error: unknown) =>
    error instanceof ApiError && error.code === 'AMOUNT_OUT_OF_RANGE'
      ? outOfRange()
      : errorText(t, error);

  const onAmount = (raw: string) => {
    setInput(sanitizeAmountInput(raw, inputMax(bounds)));
    setProblem(null);
  };

  const placeAll = () => {
    const all = available === null ? null : placeAllAmount(available, bounds);
    if (all === null) {
      setProblem(available === null ? null : t('errors.INSUFFICIENT_BALANCE'));
      return;
    }
    setInput(minorToDecimal(all));
    setProblem(null);
  };

  const buy = (direction: Direction) => {
    if (!rung) {
      setProblem(t('errors.DURATION_INVALID'));
      return;
    }
    const check = checkAmount(input, bounds, available);
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
    setConfirming(direction);
  };

  const confirm = async () => {
    if (!confirming || !rung || amount === null) return;
    const result = await place({
      productId: product.id,
      direction: confirming,
      amount,
      duration: rung.seconds,
      // The rate on screen: if the server's has changed since, it refuses with RATE_CHANGED.
      rate: rung.rate,
      mode,
    });
    if (result.kind === 'unknown') {
      setRetryNote(`${errorText(t, result.error)} ${t('orders.ticket.unknownOutcome')}`);
      return;
    }
    setConfirming(null);
    setRetryNote(null);
    if (result.kind === 'placed') {
      showToast(t('orders.ticket.purchaseSucceeded'));
      return;
    }
    setProblem(refusalText(result.error));
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
      <DurationPicker
        durations={durations}
        selected={rung?.seconds ?? null}
        onSelect={(seconds) => {
          setChosen(seconds);
          setProblem(null);
        }}
      />
      <div className="ticket__field">
        <div className="ticket__label-row">
          <label className="ticket__label" htmlFor="ticket-amount">
            {t('orders.ticket.amount')}
            {currency && <span className="ticket__unit"> ({currency})</span>}
          </label>
          <span className="ticket__bounds num" id="ticket-bounds">
            {t('orders.ticket.bounds', {
              min: money(bounds.minStake),
              max: money(bounds.maxStake),
            })}
          </span>
        </div>
        <div className="ticket__amount">
          <input
            id="ticket-amount"
            className="ticket__input num"
            data-testid="amount"
            inputMode="decimal"
            autoComplete="off"
            enterKeyHint="done"
            placeholder={t('orders.ticket.enterAmount')}
            value={input}
            aria-describedby={problem ? 'ticket-bounds ticket-problem' : 'ticket-bounds'}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => onAmount(event.target.value)}
          />
          <button
            type="button"
            className="button button--secondary ticket__all"
            data-testid="place-all"
            disabled={available === null}
            onClick={placeAll}
          >
            {t('orders.ticket.placeAll')}
          </button>
        </div>
        <p className="ticket__available">
          <span>{practice ? t('orders.practice.balance') : t('orders.ticket.available')}</span>
          <span className="num" data-testid="available-balance">
            {money(available)}
          </span>
        </p>
      </div>
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
      {problem && (
        <p className="ticket__problem" id="ticket-problem" role="alert" data-testid="ticket-error">
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
      <Link className="ticket__positions" to={POSITIONS_PATH} data-testid="view-positions">
        {t('orders.ticket.viewPositions')} ›
      </Link>
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
