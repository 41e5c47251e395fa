import { useTranslation } from 'react-i18next';
import { errorText } from './error-text';

export function LoadingState() {
  const { t } = useTranslation();
  return (
    <p className="state" role="status" data-state="loading">
      <span className="spinner" aria-hidden="true" />
      {t('common.loading')}
    </p>
  );
}

export function EmptyState({ text }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <p className="state" data-state="empty">
      {text ?? t('common.noData')}
    </p>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="state state--error" role="alert" data-state="error">
      <p>{errorText(t, error)}</p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
