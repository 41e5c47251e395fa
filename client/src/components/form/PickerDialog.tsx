import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogTitle } from '@client/components/Dialog';
import './picker-dialog.css';

export interface PickerOption {
  value: string;
  label: ReactNode;
  /** Beside the label, muted (a calling code). */
  aside?: string;
  /** Lower-case text a search matches; without it the option is not searchable. */
  search?: string;
  /** The language the label is written in (each language named in itself). */
  lang?: string;
}

/**
 * A choice in a modal list (components/Dialog.tsx: focus kept inside, Escape closes, focus back
 * to the opener): the app's one picker instead of a native select, for languages, calling codes,
 * nationalities and the short choices of ChoicePicker. Each option is a 44 px button, the chosen
 * one pressed; `searchLabel` adds a search input that takes the focus, `filter` replaces the
 * plain match of `search` (the countries' exact code first), `fit` sizes a short list's sheet to
 * its rows and `markChosen` ticks the chosen row.
 */
export function PickerDialog({
  title,
  testId,
  options,
  selected,
  searchLabel,
  filter,
  optionTestId = (value) => `${testId}-option-${value}`,
  fit = false,
  markChosen = false,
  onPick,
  onClose,
}: {
  title: string;
  testId: string;
  options: readonly PickerOption[];
  selected: string;
  searchLabel?: string;
  filter?: (query: string) => readonly PickerOption[];
  optionTestId?: (value: string) => string;
  fit?: boolean;
  markChosen?: boolean;
  onPick: (value: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const searchRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    if (filter) return filter(query);
    const q = query.trim().toLowerCase().replace(/^\+/, '');
    return q ? options.filter((o) => o.search?.includes(q)) : options;
  }, [options, query, filter]);
  return (
    <Dialog
      className={`picker-sheet${fit ? ' picker-sheet--fit' : ''}`}
      testId={`${testId}-dialog`}
      initialFocus={searchLabel ? searchRef : undefined}
      onClose={onClose}
    >
      <div className="picker-sheet__head">
        <DialogTitle className="dialog__title">{title}</DialogTitle>
        <button type="button" className="button button--secondary button--small" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
      {searchLabel && (
        <input
          ref={searchRef}
          type="search"
          className="field__input picker-sheet__search"
          placeholder={searchLabel}
          aria-label={searchLabel}
          data-testid={`${testId}-search`}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      )}
      <ul className="picker-sheet__list" aria-label={title}>
        {shown.map((o) => (
          <li key={o.value}>
            <button
              type="button"
              className="picker-sheet__option"
              aria-pressed={o.value === selected}
              data-testid={optionTestId(o.value)}
              onClick={() => onPick(o.value)}
            >
              <span lang={o.lang}>{o.label}</span>
              {o.aside && <span className="picker-sheet__code">{o.aside}</span>}
              {markChosen && o.value === selected && <span aria-hidden="true">✓</span>}
            </button>
          </li>
        ))}
        {shown.length === 0 && <li className="state">{t('common.noData')}</li>}
      </ul>
    </Dialog>
  );
}
