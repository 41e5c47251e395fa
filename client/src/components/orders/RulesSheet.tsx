import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/api/client';
import { getTradingRules } from '@client/api/orders';
import { Dialog, DialogTitle } from '@client/components/Dialog';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { useFormat } from '@client/i18n/useFormat';
import { useApiQuery } from '@client/state';
import { parseTextBlocks } from './text-blocks';
import './orders.css';

/** A page text as headings, paragraphs and lists; React renders it as text, never as HTML. */
function TextBlocks({ body }: { body: string }) {
  return (
    <>
      {parseTextBlocks(body).map((block, i) => {
        switch (block.kind) {
          case 'heading':
            return (
              <h4 key={i} className="sheet__heading">
                {block.text}
              </h4>
            );
          case 'paragraph':
            return (
              <p key={i} className="sheet__text">
                {block.text}
              </p>
            );
          case 'list':
            return (
              <ul key={i} className="sheet__list">
                {block.items.map((item, j) => (
                  <li key={j}>{item}</li>
                ))}
              </ul>
            );
        }
      })}
    </>
  );
}

function RulesBody({ lang }: { lang: string }) {
  const { t } = useTranslation();
  const rules = useApiQuery(['rules', lang], () => getTradingRules(lang));
  switch (rules.status) {
    case 'loading':
      return <LoadingState />;
    case 'error':
      // No rules page on the server (yet): say so kindly rather than "not found".
      if (rules.error instanceof ApiError && rules.error.code === 'NOT_FOUND') {
        return (
          <div className="state" role="status" data-testid="rules-unavailable">
            <p>{t('orders.ticket.rulesUnavailable')}</p>
            <button type="button" className="button button--secondary" onClick={rules.retry}>
              {t('common.retry')}
            </button>
          </div>
        );
      }
      return <ErrorState error={rules.error} onRetry={rules.retry} />;
    case 'ready':
      return (
        <article className="sheet__article" data-testid="rules-body">
          <h3 className="sheet__article-title">{rules.data.title}</h3>
          <TextBlocks body={rules.data.body} />
        </article>
      );
  }
}

/**
 * The trading rules (entry, exit, draw, void) in a bottom sheet over the ticket, in the app's
 * language. A modal (components/Dialog.tsx): Escape, the close button or a tap on the dimmed page
 * around it closes it.
 */
export function RulesSheet({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { lang } = useFormat();

  return (
    <Dialog
      className="sheet"
      testId="rules-sheet"
      onClose={onClose}
      onClick={(event) => {
        // A click on the sheet itself (transparent, the whole screen) is one on the dimmed page
        // around its panel.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="sheet__panel">
        <header className="sheet__head">
          <DialogTitle className="sheet__title">{t('orders.ticket.rules')}</DialogTitle>
          <button
            type="button"
            className="button button--secondary sheet__close"
            data-testid="rules-close"
            onClick={onClose}
          >
            {t('orders.ticket.close')}
          </button>
        </header>
        <div className="sheet__content">
          <RulesBody lang={lang} />
        </div>
      </div>
    </Dialog>
  );
}
