import { useTranslation } from 'react-i18next';
import { useBackCloses } from '@client/components/back-closes';
import { Svg } from '@client/components/icons';
import { closeSheet, useExpanded, useResults } from '@client/state/result-sheet';
import { ResultItem } from './ResultItem';
import { useSummaryText } from './ResultToast';
import { useProductNames } from './useProductNames';
import '@client/components/orders/orders.css';

const CloseIcon = () => (
  <Svg>
    <path d="M6 6l12 12M18 6L6 18" />
  </Svg>
);

/** How many results the list shows before "Show all". */
const FIRST = 3;

/**
 * The results list, opened on demand (the results button, or a tap on the toast): this session's
 * results, newest first, each a link to the order's details. Opening it acknowledges them. Not a
 * modal: it never takes the focus from the page; the × closes it, and so does the phone's Back.
 */
export default function Sheet() {
  const { t } = useTranslation();
  const results = useResults();
  const [expanded, setExpanded] = useExpanded();
  const nameOf = useProductNames();
  const summary = useSummaryText();
  const shown = expanded ? results : results.slice(0, FIRST);
  const more = results.length > FIRST;
  useBackCloses(closeSheet);

  return (
    <section
      className="results"
      aria-label={t('results.region')}
      data-testid="result-sheet"
      data-count={results.length}
    >
      <div className="results__panel">
        <div className="results__head">
          {more ? (
            <button
              type="button"
              className="results__summary"
              aria-expanded={expanded}
              onClick={() => setExpanded(!expanded)}
              data-testid="result-summary"
            >
              <span>{summary(results)}</span>
              <span className="results__toggle">
                {expanded ? t('results.collapse') : t('results.expand')}
              </span>
            </button>
          ) : (
            <h2 className="results__title">
              {results.length > 1 ? summary(results) : t('results.title')}
            </h2>
          )}
          <button
            type="button"
            className="icon-button results__dismiss"
            onClick={closeSheet}
            aria-label={t('results.close')}
            data-testid="result-sheet-close"
          >
            <CloseIcon />
          </button>
        </div>
        {results.length === 0 ? (
          <p className="results__empty">{t('results.none')}</p>
        ) : (
          <ul className="results__list" data-testid="result-list">
            {shown.map(({ order }) => (
              <li key={order.id}>
                <ResultItem order={order} name={nameOf(order.productId)} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
