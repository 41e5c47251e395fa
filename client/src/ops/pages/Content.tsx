import { useState } from 'react';
import { useForm, type FieldValues, type Path, type UseFormSetError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { languages } from '@shared/languages';
import { api, OpsError } from '../api';
import { useT, type OpsT } from '../useT';
import type { PublishedNews, SentMessage } from '../types';

/** Field messages are console keys (i18n/en.json), translated where they are shown. */
const required = (max: number) =>
  z.string().trim().min(1, 'content.required').max(max, `content.max${max}`);
const messageSchema = z.object({
  userId: z
    .string()
    .trim()
    .regex(/^(\d{1,15})?$/, 'content.userIdFormat'),
  title: required(120),
  body: required(2000),
});
const newsSchema = z.object({
  lang: z.enum(languages),
  title: required(120),
  body: required(20_000),
});
type MessageFields = z.infer<typeof messageSchema>;
type NewsFields = z.infer<typeof newsSchema>;

/**
 * The server's refusal on the field it names (a 400 VALIDATION_FAILED, a 404 for an unknown
 * user); anything else under the form.
 */
function refuse<F extends FieldValues>(
  err: unknown,
  fields: readonly Path<F>[],
  setError: UseFormSetError<F>,
  t: OpsT,
) {
  const field = err instanceof OpsError ? (err.field as Path<F> | undefined) : undefined;
  if (err instanceof OpsError && err.status === 404 && fields.includes('userId' as Path<F>))
    setError('userId' as Path<F>, { message: t('content.noSuchUser') });
  else if (err instanceof OpsError && err.status === 400 && field && fields.includes(field))
    setError(field, { message: err.message });
  else
    setError('root', {
      message: err instanceof OpsError && err.status === 400 ? err.message : t('common.failed'),
    });
}

/** Content (admin): a message to one user or to everyone, and a news item in one language. */
export function ContentPage() {
  const { t } = useT();
  return (
    <div className="ops-page">
      <header className="ops-page-head">
        <h1>{t('nav.content')}</h1>
      </header>
      <div className="ops-columns">
        <MessageForm />
        <NewsForm />
      </div>
    </div>
  );
}

function FieldError({ message }: { message?: string }) {
  const { t } = useT();
  if (!message) return null;
  return (
    <span className="ops-field-error">{message.startsWith('content.') ? t(message) : message}</span>
  );
}

function MessageForm() {
  const { t } = useT();
  const [sent, setSent] = useState<string | null>(null);
  const { register, handleSubmit, formState, reset, setError } = useForm<MessageFields>({
    resolver: zodResolver(messageSchema),
    defaultValues: { userId: '', title: '', body: '' },
  });
  const { errors } = formState;
  const send = async ({ userId, title, body }: MessageFields) => {
    setSent(null);
    try {
      const message = await api<SentMessage>('/ops/messages', {
        method: 'POST',
        body: { ...(userId ? { userId } : {}), title, body },
      });
      setSent(
        message.userId
          ? t('content.sentTo', { title: message.title, user: message.userId })
          : t('content.sentAll', { title: message.title }),
      );
      reset();
    } catch (err) {
      refuse(err, ['userId', 'title', 'body'], setError, t);
    }
  };
  return (
    <form
      className="ops-card ops-stack"
      onSubmit={handleSubmit(send)}
      noValidate
      data-testid="message-form"
    >
      <h2>{t('content.messageTitle')}</h2>
      <label className="ops-field">
        <span>{t('content.userId')}</span>
        <input inputMode="numeric" autoComplete="off" {...register('userId')} />
        <span className="ops-muted">{t('content.userIdHint')}</span>
        <FieldError message={errors.userId?.message} />
      </label>
      <label className="ops-field">
        <span>{t('content.title')}</span>
        <input autoComplete="off" {...register('title')} />
        <FieldError message={errors.title?.message} />
      </label>
      <label className="ops-field">
        <span>{t('content.body')}</span>
        <textarea rows={5} {...register('body')} />
        <FieldError message={errors.body?.message} />
      </label>
      {errors.root?.message && <p className="ops-alert">{errors.root.message}</p>}
      {sent && (
        <p className="ops-notice ops-ok" role="status" data-testid="message-sent">
          {sent}
        </p>
      )}
      <div className="ops-row-end">
        <button type="submit" className="ops-btn ops-primary" disabled={formState.isSubmitting}>
          {t('content.send')}
        </button>
      </div>
    </form>
  );
}

function NewsForm() {
  const { t } = useT();
  const [published, setPublished] = useState<string | null>(null);
  const { register, handleSubmit, formState, reset, setError } = useForm<NewsFields>({
    resolver: zodResolver(newsSchema),
    defaultValues: { lang: 'zh-CN', title: '', body: '' },
  });
  const { errors } = formState;
  const publish = async (fields: NewsFields) => {
    setPublished(null);
    try {
      const item = await api<PublishedNews>('/ops/news', { method: 'POST', body: fields });
      setPublished(t('content.published', { title: fields.title, id: item.id }));
      reset({ lang: fields.lang, title: '', body: '' });
    } catch (err) {
      refuse(err, ['lang', 'title', 'body'], setError, t);
    }
  };
  return (
    <form
      className="ops-card ops-stack"
      onSubmit={handleSubmit(publish)}
      noValidate
      data-testid="news-form"
    >
      <h2>{t('content.newsTitle')}</h2>
      <label className="ops-field">
        <span>{t('content.lang')}</span>
        <select {...register('lang')}>
          {languages.map((l) => (
            <option key={l} value={l}>
              {t(`content.languages.${l}`)}
            </option>
          ))}
        </select>
        <FieldError message={errors.lang?.message} />
      </label>
      <label className="ops-field">
        <span>{t('content.title')}</span>
        <input autoComplete="off" {...register('title')} />
        <FieldError message={errors.title?.message} />
      </label>
      <label className="ops-field">
        <span>{t('content.body')}</span>
        <textarea rows={8} {...register('body')} />
        <FieldError message={errors.body?.message} />
      </label>
      {errors.root?.message && <p className="ops-alert">{errors.root.message}</p>}
      {published && (
        <p className="ops-notice ops-ok" role="status" data-testid="news-published">
          {published}
        </p>
      )}
      <div className="ops-row-end">
        <button type="submit" className="ops-btn ops-primary" disabled={formState.isSubmitting}>
          {t('content.publish')}
        </button>
      </div>
    </form>
  );
}
