import { useTranslation } from 'react-i18next';
import { Svg } from '@client/components/icons';
import { openSheet, useResults, useUnseenCount } from '@client/state/result-sheet';
import './results.css';

const ListIcon = () => (
  <Svg>
    <path d="M4 6h2M4 12h2M4 18h2M9 6h11M9 12h11M9 18h11" />
  </Svg>
);

/**
 * The results list one tap away (the trade screen's header): its badge counts the results not
 * acknowledged yet. Absent until there is a result to list.
 */
export function ResultsButton() {
  const { t } = useTranslation();
  const count = useResults().length;
  const unseen = useUnseenCount();
  if (count === 0) return null;
  // The badge's text, in the name too: a name that says 12 beside a badge that shows 9+ fails
  // WCAG 2.5.3 (axe's label-content-name-mismatch, seen by the routes walk on CI). The
  // translations keep it out of parentheses, which that check drops (locales.test.ts).
  const badge = unseen > 9 ? '9+' : String(unseen);
  return (
    <button
      type="button"
      className="icon-button results-button"
      onClick={openSheet}
      aria-label={t('results.open', { n: badge })}
      data-testid="results-button"
      data-unseen={unseen}
    >
      <ListIcon />
      {unseen > 0 && (
        <span className="results-button__badge num" aria-hidden="true">
          {badge}
        </span>
      )}
    </button>
  );
}
