import { Link } from 'react-router-dom';
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

/** The one thing to do next on an empty list: a link to the page where its items come from. */
export interface EmptyAction {
  label: string;
  to: string;
}

/**
 * Nothing to show: an icon, one line of text, and at most one action (docs/VISUAL-SYSTEM.md,
 * "Empty states"): a list that fills from somewhere else leads there ("Start a trade",
 * "Deposit"); one that fills by itself (messages, news) has none.
 */
export function EmptyState({ text, action }: { text?: string; action?: EmptyAction }) {
  const { t } = useTranslation();
  return (
    <div className="state state--empty" data-state="empty">
      <svg className="state__icon" viewBox="0 0 48 48" aria-hidden="true">
        <path
          d="M8 28 13 10h22l5 18v10H8Z M8 28h10l2 4h8l2-4h10"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinejoin="round"
        />
      </svg>
      <p>{text ?? t('common.noData')}</p>
      {action && (
        <Link className="button state__action" to={action.to} data-testid="empty-action">
          {action.label}
        </Link>
      )}
    </div>
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
