import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogTitle } from './Dialog';
import './wallet/picker.css';
import './choice-picker.css';

export interface Choice<T extends string> {
  value: T;
  label: string;
}

/**
 * The app's picker in place of a native <select> (docs/VISUAL-SYSTEM.md): a button showing the
 * current choice that opens a sheet of the choices, each a 44 px row; the chosen one is pressed.
 * The same pattern as the nationality picker (wallet/CountrySelect.tsx), without the search.
 */
export function ChoicePicker<T extends string>({
  label,
  testId,
  value,
  choices,
  onValue,
  hideLabel = false,
}: {
  label: string;
  testId: string;
  value: T;
  choices: readonly Choice<T>[];
  onValue: (value: T) => void;
  /** The label is read to screen readers only (a filter whose list says what it is). */
  hideLabel?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const current = choices.find((c) => c.value === value);
  return (
    <div className="choice-picker">
      <span className={hideLabel ? 'visually-hidden' : 'choice-picker__label'} id={`${id}-label`}>
        {label}
      </span>
      <button
        type="button"
        className="choice-picker__button"
        data-testid={testId}
        data-value={value}
        aria-haspopup="dialog"
        aria-labelledby={`${id}-label ${id}-value`}
        onClick={() => setOpen(true)}
      >
        <span id={`${id}-value`}>{current?.label}</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <Dialog
          className="dialog sheet sheet--fit"
          testId={`${testId}-dialog`}
          onClose={() => setOpen(false)}
        >
          <div className="sheet__head">
            <DialogTitle className="dialog__title">{label}</DialogTitle>
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => setOpen(false)}
            >
              {t('common.cancel')}
            </button>
          </div>
          <ul className="sheet__list" aria-label={label}>
            {choices.map((c) => (
              <li key={c.value}>
                <button
                  type="button"
                  className="sheet__option"
                  aria-pressed={c.value === value}
                  data-testid={`${testId}-${c.value || 'all'}`}
                  onClick={() => {
                    onValue(c.value);
                    setOpen(false);
                  }}
                >
                  <span>{c.label}</span>
                  {c.value === value && <span aria-hidden="true">✓</span>}
                </button>
              </li>
            ))}
          </ul>
        </Dialog>
      )}
    </div>
  );
}
