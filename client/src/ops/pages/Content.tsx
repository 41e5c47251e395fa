import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { languages } from '@shared/languages';
import * as ops from '@shared/content/ops.routes';
import { call } from '../api';
import { useT } from '../useT';
import { Field, FormEnd, refuse, required } from '../components/form-bits';
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
      <Field
        label={t('content.userId')}
        hint={t('content.userIdHint')}
        error={errors.userId?.message}
      >
        <input inputMode="numeric" autoComplete="off" {...register('userId')} />
      </Field>
      <Field label={t('content.title')} error={errors.title?.message}>
        <input autoComplete="off" {...register('title')} />
      </Field>
      <Field label={t('content.body')} error={errors.body?.message}>
        <textarea rows={5} {...register('body')} />
      </Field>
      <FormEnd
        error={errors.root?.message}
        done={sent}
        doneTestId="message-sent"
        busy={formState.isSubmitting}
        submit={t('content.send')}
      />
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
      <Field label={t('content.lang')} error={errors.lang?.message}>
        <select {...register('lang')}>
          {languages.map((l) => (
            <option key={l} value={l}>
              {t(`content.languages.${l}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('content.title')} error={errors.title?.message}>
        <input autoComplete="off" {...register('title')} />
      </Field>
      <Field label={t('content.body')} error={errors.body?.message}>
        <textarea rows={8} {...register('body')} />
      </Field>
      <FormEnd
        error={errors.root?.message}
        done={published}
        doneTestId="news-published"
        busy={formState.isSubmitting}
        submit={t('content.publish')}
      />
    </form>
  );
}
