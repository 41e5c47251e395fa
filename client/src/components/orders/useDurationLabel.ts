import { useTranslation } from 'react-i18next';
import { durationUnit } from './format';

/** "30 sec", "5 min" in the current language. */
export function useDurationLabel(): (seconds: number) => string {
  const { t } = useTranslation();
  return (seconds) => {
    const { unit, value } = durationUnit(seconds);
    return unit === 'minutes'
      ? t('orders.ticket.minutes', { value })
      : t('orders.ticket.seconds', { value });
  };
}
