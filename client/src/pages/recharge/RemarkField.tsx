import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { depositBody } from '@shared/wallet/requests';
import { maxLengthOf } from '@client/components/form/validation';
import '@client/components/wallet/picker.css';

/** Spec §5: a textarea of at most 140 characters (the server's limit, from its schema). */
const REMARK_MAX = maxLengthOf(depositBody.options[0].shape.remark) ?? 0;

/** The optional remark, with a live "n/140" counter. */
export function RemarkField({ value, onValue }: { value: string; onValue: (v: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {t('wallet.deposit.remark')}
      </label>
      <textarea
        id={id}
        className="field__input textarea"
        data-testid="remark"
        maxLength={REMARK_MAX}
        placeholder={t('wallet.deposit.remarkPlaceholder')}
        aria-describedby={`${id}-count`}
        value={value}
        onChange={(event) => onValue(event.target.value.slice(0, REMARK_MAX))}
      />
      <span className="field__counter num" id={`${id}-count`} data-testid="remark-count">
        {t('wallet.deposit.remarkCount', { length: value.length, max: REMARK_MAX })}
      </span>
    </div>
  );
}
