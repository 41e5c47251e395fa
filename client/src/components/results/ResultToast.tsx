import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Svg } from '@client/components/icons';
import { orderNumber } from '@client/components/orders/order-number';
import { formatSignedMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { groupResults } from '@client/state/order-results';
import { dismissToast, holdToast, openSheet, useToastResults } from '@client/state/result-sheet';
import { useOutcomeText } from './ResultItem';
import { useProductNames } from './useProductNames';

/** A horizontal swipe this long dismisses the toast, as a notification would. */
const SWIPE_PX = 60;

const CloseIcon = () => (
  <Svg>
    <path d="M6 6l12 12M18 6L6 18" />
  </Svg>
);

/** "3 orders settled: +120.00 · practice -10.00": real and practice totals apart. */
export function useSummaryText(): (results: Parameters<typeof groupResults>[0]) => string {
  const { t } = useTranslation();
  const { lang } = useFormat();
  return (results) => {
    const group = groupResults(results);
    const totals = [
      group.pnl.real !== undefined ? formatSignedMoney(group.pnl.real, lang) : null,
      group.pnl.practice !== undefined
        ? t('results.practiceTotal', { amount: formatSignedMoney(group.pnl.practice, lang) })
        : null,
    ].filter(Boolean);
    return t('results.summary', { n: group.count, total: totals.join(' · ') });
  };
}

/**
 * New results as a small toast at the top of the screen, under the header: never over the buy
 * buttons, never modal. One result reads as one line and its outcome; several that settle
 * together as one summary line. It hides by itself (result-sheet.ts); a tap opens the results
 * list, the × or a sideways swipe dismisses (acknowledges) them. A live region announces each.
 */
export function ResultToast() {
  const { t } = useTranslation();
  const results = useToastResults();
  const outcome = useOutcomeText();
  const summary = useSummaryText();
  const nameOf = useProductNames();
  const startX = useRef<number | null>(null);
  if (results.length === 0) return null;
  const latest = results[0]!.order;
  const many = results.length > 1;
  const status = latest.status as Exclude<typeof latest.status, 'open'>;
  const announce = many
    ? summary(results)
    : t('results.announce', {
        number: orderNumber(latest.id),
        status: t(`orders.status.${status}`),
        outcome: outcome(latest),
      });

  return (
    <section
      className={`result-toast result-toast--${many ? 'many' : status}`}
      aria-label={t('results.region')}
      data-testid="result-toast"
      data-count={results.length}
      data-ids={results.map((r) => r.order.id).join(' ')}
      data-status={status}
      onPointerEnter={() => holdToast(true)}
      onPointerLeave={() => holdToast(false)}
      onFocus={() => holdToast(true)}
      onBlur={() => holdToast(false)}
      onPointerDown={(e) => (startX.current = e.clientX)}
      onPointerUp={(e) => {
        const dx = startX.current === null ? 0 : e.clientX - startX.current;
        startX.current = null;
        if (Math.abs(dx) >= SWIPE_PX) dismissToast();
      }}
    >
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announce}
      </p>
      <button type="button" className="result-toast__body" onClick={openSheet}>
        <span className="result-toast__top">
          {!many && (
            <span className={`result__status result__status--${status}`}>
              {t(`orders.status.${status}`)}
            </span>
          )}
          <span className="result-toast__name">
            {many ? summary(results) : nameOf(latest.productId)}
          </span>
        </span>
        <span className="result-toast__outcome num" data-testid="result-outcome">
          {outcome(latest)}
        </span>
      </button>
      <button
        type="button"
        className="icon-button result-toast__dismiss"
        onClick={dismissToast}
        aria-label={t('results.dismiss')}
        data-testid="result-dismiss"
      >
        <CloseIcon />
      </button>
    </section>
  );
}
