import { useTranslation } from 'react-i18next';
import { TextField } from '@client/components/form/TextField';
import { tradePasswordLength } from '@shared/accounts';
import { digitsOnly, type MessageKey } from '@client/components/form/validation';

/**
 * The 6-digit transaction password that confirms a money action (a withdrawal, binding where
 * withdrawals go): masked, the numeric keypad on phones, digits only. Takes `form.field(…)`.
 */
export function TradePasswordField({
  hint,
  ...field
}: {
  name: string;
  value: string;
  error: MessageKey | null;
  onValue: (value: string) => void;
  onBlur: () => void;
  hint?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      {...field}
      label={t('account.fields.tradePassword')}
      hint={hint ?? t('account.rules.tradePassword')}
      testId="trade-password"
      type="password"
      inputMode="numeric"
      autoComplete="off"
      maxLength={tradePasswordLength}
      filter={digitsOnly}
    />
  );
}
