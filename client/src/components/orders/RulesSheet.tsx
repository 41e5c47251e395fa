import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/api/client';
import { getTradingRules } from '@client/api/orders';
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
 * language. A modal <dialog>: Escape, the close button or a tap on the backdrop closes it.
 */
export function RulesSheet({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className="sheet"
      aria-labelledby={titleId}
      data-testid="rules-sheet"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the dialog element itself is a click on the backdrop around the sheet.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="sheet__panel">
        <header className="sheet__head">
          <h2 id={titleId} className="sheet__title">
            {t('orders.ticket.rules')}
          </h2>
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
    </dialog>
  );
}
