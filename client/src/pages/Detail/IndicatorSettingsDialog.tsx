import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogDescription, DialogTitle } from '@client/components/Dialog';
import { useFormat } from '@client/i18n/useFormat';
import {
  defaultSettings,
  indicatorKeys,
  normaliseChoice,
  settingFields,
  type IndicatorChoice,
  type IndicatorKey,
  type IndicatorSettings,
  type SettingField,
} from './indicator-choice';
import { indicatorCode, indicatorName } from './IndicatorToggles';

type Draft = Record<IndicatorKey, Record<string, string>>;

const draftOf = (settings: IndicatorSettings): Draft =>
  Object.fromEntries(
    indicatorKeys.map((key) => [
      key,
      Object.fromEntries(Object.entries(settings[key]).map(([f, v]) => [f, String(v)])),
    ]),
  ) as Draft;

const settingsOf = (draft: Draft): unknown =>
  Object.fromEntries(
    indicatorKeys.map((key) => [
      key,
      Object.fromEntries(Object.entries(draft[key]).map(([f, v]) => [f, Number(v)])),
    ]),
  );

/**
 * Each indicator's periods (and the bands' width), within bounds the inputs enforce (a window of
 * 2 bars at least; the slow MACD average longer than the fast one). Applied on Apply; Cancel,
 * Escape or Back leave them as they were.
 */
export function IndicatorSettingsDialog({
  choice,
  onSave,
  onClose,
}: {
  choice: IndicatorChoice;
  onSave: (next: IndicatorChoice) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [draft, setDraft] = useState(() => draftOf(choice.settings));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(normaliseChoice({ ...choice, settings: settingsOf(draft) }));
  };
  const input = (key: IndicatorKey, name: string, field: SettingField) => {
    const id = `indicator-${key}-${name}`;
    // The slow average is the longer one: its least is one more than the fast one's.
    const fast = key === 'macd' && name === 'slow' ? Number(draft.macd.fast) + 1 : NaN;
    const min = Number.isFinite(fast) ? Math.max(field.min, fast) : field.min;
    return (
      <label key={name} className="indicator-settings__field" htmlFor={id}>
        <span>{t(`market.indicators.field.${name as 'period'}`)}</span>
        <input
          id={id}
          className="indicator-settings__input"
          type="number"
          inputMode={field.step < 1 ? 'decimal' : 'numeric'}
          required
          min={min}
          max={field.max}
          step={field.step}
          value={draft[key][name]}
          data-testid={id}
          onChange={(e) =>
            setDraft((d) => ({ ...d, [key]: { ...d[key], [name]: e.target.value } }))
          }
        />
        <small className="indicator-settings__range">
          {t('market.indicators.range', {
            min: format.decimal(String(field.min), 1),
            max: format.decimal(String(field.max), 1),
          })}
        </small>
      </label>
    );
  };
  return (
    <Dialog
      className="dialog indicator-settings"
      testId="indicator-settings-dialog"
      described
      onClose={onClose}
    >
      <form onSubmit={submit}>
        <DialogTitle className="dialog__title">{t('market.indicators.settings')}</DialogTitle>
        <DialogDescription className="dialog__message">
          {t('market.indicators.settingsHint')}
        </DialogDescription>
        {indicatorKeys.map((key) => (
          <fieldset key={key} className="indicator-settings__group">
            <legend>
              {indicatorCode(t, key)} · {indicatorName(t, key)}
            </legend>
            {Object.entries(settingFields[key] as Record<string, SettingField>).map(
              ([name, field]) => input(key, name, field),
            )}
          </fieldset>
        ))}
        <div className="dialog__actions">
          <button
            type="button"
            className="button button--secondary"
            data-testid="indicator-settings-defaults"
            onClick={() => setDraft(draftOf(defaultSettings))}
          >
            {t('market.indicators.defaults')}
          </button>
          <button
            type="button"
            className="button button--secondary"
            data-testid="indicator-settings-cancel"
            onClick={onClose}
          >
            {t('common.cancel')}
          </button>
          <button type="submit" className="button" data-testid="indicator-settings-apply">
            {t('market.indicators.apply')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
