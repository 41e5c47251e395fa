import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { languages } from '@shared/languages';
import * as ops from '@shared/content-ops.routes';
import { call } from '../api';
import { useT } from '../useT';
import { FieldError, refuse, required } from '../components/form-bits';
import { BannersForm, PageForm } from './ContentTexts';

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
 * Content (admin): a message to one user or to everyone, a news item in one language, a text
 * page's text in one language, and one language's Home banners.
 */
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
      <div className="ops-columns">
        <PageForm />
        <BannersForm />
      </div>
    </div>
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
      const message = await call(ops.sendMessage, {
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
      const item = await call(ops.publishNews, { body: fields });
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
