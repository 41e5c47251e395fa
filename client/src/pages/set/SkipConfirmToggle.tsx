import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSkipConfirm } from '@client/state/skip-confirm';
import './skip-confirm.css';

/** Settings row: place orders without the confirmation dialog (off by default). */
export function SkipConfirmToggle() {
  const { t } = useTranslation();
  const [skip, setSkip] = useSkipConfirm();
  const id = useId();
  return (
    <div className="language-select language-select--row skip-confirm">
      <label htmlFor={id} className="language-select__label">
        {t('account.settings.skipConfirm')}
        <small className="skip-confirm__hint">{t('account.settings.skipConfirmHint')}</small>
      </label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="skip-confirm__switch"
        data-testid="skip-confirm"
        checked={skip}
        onChange={(event) => setSkip(event.target.checked)}
      />
    </div>
  );
}
