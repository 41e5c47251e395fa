import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@client/app/route-table';
import { Link } from 'react-router-dom';
import type { Message } from '@shared/content/model';
import { getMessages, markAllMessagesRead, markMessageRead } from '@client/api/content';
import { ListEnd } from '@client/components/content/ListEnd';
import { messageLinks, messageText } from '@client/components/content/message-text';
import { RelativeTime } from '@client/components/content/RelativeTime';
import { PageHeader } from '@client/components/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '@client/components/StateViews';
import { noteMessagesRead, queryKeys, showToast, useAppInfo } from '@client/state';
import { updatePagedRows, usePagedQuery } from '@client/state/paged';
import { errorText } from '@client/components/error-text';
import '@client/components/content/content.css';
import '@client/components/content/messages.css';

function MessageItem({
  message,
  open,
  onToggle,
}: {
  message: Message;
  open: boolean;
  onToggle: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const currency = useAppInfo()?.currency ?? 'USDT';
  const text = messageText(t, message, lang, currency);
  const bodyId = `message-body-${message.id}`;
  return (
    <li className={`message${message.read ? '' : ' message--unread'}`}>
      <button
        type="button"
        className="message__head"
        aria-expanded={open}
        aria-controls={bodyId}
        data-testid={`message-${message.id}`}
        onClick={onToggle}
      >
        {!message.read && (
          <span className="message__dot" data-testid={`message-unread-${message.id}`}>
            <span className="visually-hidden">{t('content.messages.unread')}</span>
          </span>
        )}
        <span className="message__title">{text.title}</span>
        <span className="message__meta">
          {message.broadcast && (
            <span className="message__tag">{t('content.messages.broadcast')}</span>
          )}
          <RelativeTime ms={message.createdAt} />
        </span>
      </button>
      <div id={bodyId} className="message__body" hidden={!open}>
        <p>{text.body}</p>
        {message.kind !== 'custom' && (
          <Link to={messageLinks[message.kind]} className="message__link">
            {t(`content.messages.links.${message.kind}`)}
          </Link>
        )}
      </div>
    </li>
  );
}

/**
 * /pages/message/message: the user's messages and broadcasts, newest first, unread ones marked.
 * Opening one marks it read; new ones appear as they arrive.
 */
export function MessagesPage() {
  const { t } = useTranslation();
  // New messages come in as the bridge reads the list again on each `message` event.
  const list = usePagedQuery(queryKeys.messageList, (cursor) => getMessages(cursor));
  const [open, setOpen] = useState<string | null>(null);
  const hasUnread = list.items.some((m) => !m.read);

  const setRead = (ids: Set<string> | 'all', read: boolean) =>
    updatePagedRows<Message>(queryKeys.messageList, (m) =>
      ids === 'all' || ids.has(m.id) ? { ...m, read } : m,
    );

  const toggle = (m: Message) => {
    setOpen((current) => (current === m.id ? null : m.id));
    if (m.read) return;
    setRead(new Set([m.id]), true);
    markMessageRead(m.id).then(
      () => noteMessagesRead(1),
      (err: unknown) => {
        setRead(new Set([m.id]), false);
        showToast(errorText(t, err));
      },
    );
  };
  const readAll = () => {
    markAllMessagesRead().then(
      () => {
        setRead('all', true);
        noteMessagesRead('all');
      },
      (err: unknown) => showToast(errorText(t, err)),
    );
  };

  return (
    <>
      <PageHeader back title={t('pages.messages')}>
        {hasUnread && (
          <button
            type="button"
            className="header-text-button"
            onClick={readAll}
            data-testid="read-all"
          >
            {t('content.messages.markAllRead')}
          </button>
        )}
      </PageHeader>
      {list.status === 'loading' ? (
        <LoadingState />
      ) : list.status === 'error' ? (
        <ErrorState error={list.error} onRetry={list.retry} />
      ) : list.items.length === 0 ? (
        <EmptyState
          text={t('empty.messages')}
          action={{ label: t('empty.backHome'), to: paths.home }}
        />
      ) : (
        <>
          <ul className="messages" aria-label={t('pages.messages')} data-testid="messages">
            {list.items.map((m) => (
              <MessageItem key={m.id} message={m} open={open === m.id} onToggle={() => toggle(m)} />
            ))}
          </ul>
          <ListEnd list={list} testId="messages-end" />
        </>
      )}
    </>
  );
}
