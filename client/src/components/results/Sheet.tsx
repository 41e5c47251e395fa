import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { getProducts } from '@client/api/market';
import { Svg } from '@client/components/icons';
import { orderNumber } from '@client/components/orders/order-number';
import { formatSignedMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { useProductName } from '@client/i18n/useProductName';
import { groupResults } from '@client/state/order-results';
import { queryClient, queryKeys } from '@client/state/query-client';
import { ResultItem, useOutcomeText } from './ResultItem';
import {
  clearResults,
  holdSheet,
  openSheet,
  useExpanded,
  useResults,
  useSheetView,
} from '@client/state/result-sheet';
import '@client/components/orders/orders.css';
import './results.css';

const CloseIcon = () => (
  <Svg>
    <path d="M6 6l12 12M18 6L6 18" />
  </Svg>
);

/** The sheet itself, loaded with the first result (ResultSheet.tsx). */
export default function Sheet() {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const results = useResults();
  const view = useSheetView();
  const [expanded, setExpanded] = useExpanded();
  const products = useQuery(
    { queryKey: queryKeys.products, queryFn: () => getProducts() },
    queryClient,
  );
  const productName = useProductName();
  const names = useMemo(
    () => new Map(products.data?.map((p) => [p.id, productName(p)]) ?? []),
    [products.data, productName],
  );
  const nameOf = (id: string) => names.get(id) ?? id;
  const outcome = useOutcomeText();
  const group = groupResults(results);
  const latest = results[0]!.order;
  const many = results.length > 1;

  const totals = [
    group.pnl.real !== undefined ? formatSignedMoney(group.pnl.real, lang) : null,
    group.pnl.practice !== undefined
      ? t('results.practiceTotal', { amount: formatSignedMoney(group.pnl.practice, lang) })
      : null,
  ].filter(Boolean);
  const summary = t('results.summary', { n: group.count, total: totals.join(' · ') });

  const dismiss = (
    <button
      type="button"
      className="icon-button results__dismiss"
      onClick={clearResults}
      aria-label={t('results.dismiss')}
      data-testid="result-dismiss"
    >
      <CloseIcon />
    </button>
  );

  return (
    <section
      className={`results results--${view}`}
      aria-label={t('results.region')}
      data-testid="result-sheet"
      data-view={view}
      data-count={results.length}
      onPointerEnter={() => holdSheet(true)}
      onPointerLeave={() => holdSheet(false)}
      onFocus={() => holdSheet(true)}
      onBlur={() => holdSheet(false)}
    >
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {many
          ? summary
          : t('results.announce', {
              number: orderNumber(latest.id),
              status: t(`orders.status.${latest.status}`),
              outcome: outcome(latest),
            })}
      </p>
      {view === 'folded' ? (
        <div className="results__chip-row">
          <button
            type="button"
            className="results__chip"
            onClick={openSheet}
            data-testid="result-chip"
          >
            {t('results.chip', { n: results.length })}
          </button>
          {dismiss}
        </div>
      ) : (
        <div className="results__panel">
          <div className="results__head">
            {many ? (
              <button
                type="button"
                className="results__summary"
                aria-expanded={expanded}
                onClick={() => setExpanded(!expanded)}
                data-testid="result-summary"
              >
                <span>{summary}</span>
                <span className="results__toggle">
                  {expanded ? t('results.collapse') : t('results.expand')}
                </span>
              </button>
            ) : (
              <h2 className="results__title">{t('results.title')}</h2>
            )}
            {dismiss}
          </div>
          {(!many || expanded) && (
            <ul className="results__list" data-testid="result-list">
              {results.map(({ order }) => (
                <li key={order.id}>
                  <ResultItem order={order} name={nameOf(order.productId)} />
                </li>
              ))}
            </ul>
          )}
          {many && !expanded && <ResultItem order={latest} name={nameOf(latest.productId)} />}
        </div>
      )}
    </section>
  );
}
