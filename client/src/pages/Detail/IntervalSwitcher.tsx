import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PickerDialog } from '@client/components/form/PickerDialog';
import { chartViews, type ChartView } from './chart-view';

/** The long intervals: behind "More" on a phone upright (detail.css), in the row where it is wide. */
const moreViews: readonly ChartView[] = ['1h', '4h', '1d'];

/**
 * The chart's intervals, every one a 44 px target. Where all nine fit (a wide screen, the chart
 * full screen on its side) they are one row; on a phone upright the short ones stay in the row
 * and the long ones (an hour and more) sit behind "More", which then shows the one chosen.
 */
export function IntervalSwitcher({
  view,
  onChange,
}: {
  view: ChartView;
  onChange: (v: ChartView) => void;
}) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  const longChosen = moreViews.includes(view);
  return (
    <div className="intervals" role="group" aria-label={t('market.intervalLabel')}>
      {chartViews.map((v) => (
        <button
          key={v}
          type="button"
          className={`intervals__button${moreViews.includes(v) ? ' intervals__button--long' : ''}`}
          aria-pressed={v === view}
          data-testid={`interval-${v}`}
          onClick={() => onChange(v)}
        >
          {t(`market.interval.${v}`)}
        </button>
      ))}
      <button
        type="button"
        className="intervals__button intervals__more"
        aria-pressed={longChosen}
        aria-haspopup="dialog"
        data-testid="interval-more"
        onClick={() => setPicking(true)}
      >
        {longChosen ? t(`market.interval.${view}`) : t('market.intervalMore')}
        <span aria-hidden="true"> ▾</span>
      </button>
      {picking && (
        <PickerDialog
          title={t('market.intervalLabel')}
          testId="interval-more"
          options={moreViews.map((v) => ({ value: v, label: t(`market.interval.${v}`) }))}
          selected={view}
          fit
          markChosen
          onPick={(v) => {
            onChange(v as ChartView);
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      )}
    </div>
  );
}
