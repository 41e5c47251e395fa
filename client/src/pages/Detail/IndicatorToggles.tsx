import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  indicatorKeys,
  settingsText,
  type IndicatorChoice,
  type IndicatorKey,
} from './indicator-choice';
import { IndicatorSettingsDialog } from './IndicatorSettingsDialog';

/**
 * The short names on the toggles. MA and BOLL are written as each market writes them (French
 * MM); EMA, RSI, MACD and Stoch are printed alike by trading apps everywhere.
 */
export function indicatorCode(t: TFunction, key: IndicatorKey): string {
  switch (key) {
    case 'ma':
      return t('market.indicators.ma');
    case 'boll':
      return t('market.indicators.boll');
    case 'ema':
      return 'EMA';
    case 'rsi':
      return 'RSI';
    case 'macd':
      return 'MACD';
    case 'stoch':
      return 'Stoch';
  }
}

/** The full name, read out by screen readers and heading the indicator's settings. */
export const indicatorName = (t: TFunction, key: IndicatorKey): string =>
  t(`market.indicators.${key}Name`);

/**
 * The indicators on or off, over candles (the line view has none): MA, EMA and Bollinger bands
 * over the price, RSI, MACD and the stochastic in panes under it; the row scrolls sideways on a
 * phone. The gear beside it opens their settings.
 */
export function IndicatorToggles({
  choice,
  onChange,
}: {
  choice: IndicatorChoice;
  onChange: (next: IndicatorChoice) => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  return (
    <>
      <div className="indicators" role="group" aria-label={t('market.indicators.label')}>
        {indicatorKeys.map((key) => (
          <button
            key={key}
            type="button"
            className="indicators__button"
            aria-pressed={choice[key]}
            // The visible abbreviation first (what a voice user says), then what it stands for.
            aria-label={`${indicatorCode(t, key)}: ${indicatorName(t, key)} ${settingsText(choice, key)}`}
            data-testid={`indicator-${key}`}
            onClick={() => onChange({ ...choice, [key]: !choice[key] })}
          >
            {indicatorCode(t, key)}
          </button>
        ))}
      </div>
      <button
        type="button"
        className="indicators__settings"
        aria-label={t('market.indicators.settings')}
        data-testid="indicator-settings"
        onClick={() => setEditing(true)}
      >
        <span aria-hidden="true">⚙</span>
      </button>
      {editing && (
        <IndicatorSettingsDialog
          choice={choice}
          onSave={(next) => {
            onChange(next);
            setEditing(false);
          }}
          onClose={() => setEditing(false)}
        />
      )}
    </>
  );
}
