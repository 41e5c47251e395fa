import { useId, useState } from 'react';
import { PickerDialog } from './form/PickerDialog';
import './choice-picker.css';

export interface Choice<T extends string> {
  value: T;
  label: string;
}

/**
 * The app's picker in place of a native <select> (docs/VISUAL-SYSTEM.md): a button showing the
 * current choice that opens a sheet of the choices, each a 44 px row; the chosen one is pressed.
 * Its sheet is the one picker of form/PickerDialog.tsx, without the search.
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
        <PickerDialog
          title={label}
          testId={testId}
          options={choices}
          selected={value}
          optionTestId={(v) => `${testId}-${v || 'all'}`}
          fit
          markChosen
          onPick={(v) => {
            onValue(v as T);
            setOpen(false);
          }}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}
