import { useTranslation } from 'react-i18next';
import { useAppInfo } from '@client/state';

/** The online customer service link from app info, opened in a new tab (DECISIONS.md, Content). */
export function ServiceLink({
  testId = 'customer-service',
  text,
}: {
  testId?: string;
  text?: string;
}) {
  const { t } = useTranslation();
  const url = useAppInfo()?.serviceUrl;
  const label = text ?? t('wallet.service');
  if (!url) return <span>{label}</span>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" data-testid={testId}>
      {label}
    </a>
  );
}
