import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isChunkLoadError } from '@client/app/lazy-page';

/** A chunk that did not load gets Retry (imports it again); anything else gets Reload. */
function ChunkError({ onRetry }: { onRetry: (() => void) | null }) {
  const { t } = useTranslation();
  return (
    <div className="state state--error" role="alert" data-testid="chunk-error">
      <p>{t('common.chunkError')}</p>
      {onRetry ? (
        <button type="button" className="button" data-testid="chunk-retry" onClick={onRetry}>
          {t('common.retry')}
        </button>
      ) : (
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </button>
      )}
    </div>
  );
}

/**
 * Catches a page that failed to render, above all a lazy page chunk that did not load (the
 * spec's "page chunk loading error"), and offers a retry (or a reload) instead of a blank screen.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: unknown } {
    return { error: error ?? new Error('render failed') };
  }

  private retry = () => {
    const { error } = this.state;
    if (isChunkLoadError(error)) error.retry();
    this.setState({ error: null });
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return <ChunkError onRetry={isChunkLoadError(error) ? this.retry : null} />;
  }
}
