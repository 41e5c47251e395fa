import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function ChunkError() {
  const { t } = useTranslation();
  return (
    <div className="state state--error" role="alert">
      <p>{t('common.chunkError')}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </button>
    </div>
  );
}

/**
 * Catches a page that failed to render, above all a lazy page chunk that did not load (the
 * spec's "page chunk loading error"), and offers a reload instead of a blank screen.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <ChunkError /> : this.props.children;
  }
}
