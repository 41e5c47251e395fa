import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { languages, type Language } from '@shared/languages';
import { bannerThemes, pageSlugs, type PageSlug } from '@shared/content/model';
import * as content from '@shared/content/routes';
import * as ops from '@shared/content/ops.routes';
import { call } from '../api';
import { useT } from '../useT';
import { Field, FormEnd, refuse, required } from '../components/form-bits';

/**
 * An editor reads what readers see now: no polling under the operator's typing (the console's
 * lists refetch every 3 s; these forms read once per page and language).
 */
const readOnce = { refetchInterval: false, refetchOnWindowFocus: false } as const;

const pageSchema = z.object({ title: required(120), body: required(20_000) });
type PageFields = z.infer<typeof pageSchema>;

function LanguagePicker({
  value,
  onChange,
  id,
}: {
  value: Language;
  onChange: (lang: Language) => void;
  id: string;
}) {
  const { t } = useT();
  return (
    <label className="ops-field" htmlFor={id}>
      <span>{t('content.lang')}</span>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as Language)}>
        {languages.map((l) => (
          <option key={l} value={l}>
            {t(`content.languages.${l}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** One text page (about, privacy, rules, …) in one language: read, edit, save. */
export function PageForm() {
  const { t } = useT();
  const [slug, setSlug] = useState<PageSlug>('about');
  const [lang, setLang] = useState<Language>('zh-CN');
  const [saved, setSaved] = useState<string | null>(null);
  const page = useQuery({
    queryKey: ['page', slug, lang],
    queryFn: () => call(content.page, { params: { slug }, query: { lang } }),
    ...readOnce,
  });
  const { register, handleSubmit, formState, reset, setError } = useForm<PageFields>({
    resolver: zodResolver(pageSchema),
    defaultValues: { title: '', body: '' },
  });
  useEffect(() => {
    if (page.data) reset({ title: page.data.title, body: page.data.body });
  }, [page.data, reset]);
  const { errors } = formState;
  const save = async (fields: PageFields) => {
    setSaved(null);
    try {
      await call(ops.setPage, { params: { slug }, body: { lang, ...fields } });
      setSaved(t('content.saved', { title: fields.title, lang: t(`content.languages.${lang}`) }));
      await page.refetch();
    } catch (err) {
      refuse(err, ['title', 'body'], setError, t);
    }
  };
  return (
    <form
      className="ops-card ops-stack"
      onSubmit={handleSubmit(save)}
      noValidate
      data-testid="page-form"
    >
      <h2>{t('content.pageTitle')}</h2>
      <div className="ops-row">
        <label className="ops-field" htmlFor="page-slug">
          <span>{t('content.page')}</span>
          <select id="page-slug" value={slug} onChange={(e) => setSlug(e.target.value as PageSlug)}>
            {pageSlugs.map((s) => (
              <option key={s} value={s}>
                {t(`content.pages.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <LanguagePicker id="page-lang" value={lang} onChange={setLang} />
      </div>
      {page.data && page.data.lang !== lang && (
        <p className="ops-warning" role="note" data-testid="page-fallback">
          {t('content.fallback', { shown: t(`content.languages.${page.data.lang}`) })}
        </p>
      )}
      {page.isError && <p className="ops-alert">{t('common.loadFailed')}</p>}
      <Field label={t('content.title')} error={errors.title?.message}>
        <input autoComplete="off" {...register('title')} />
      </Field>
      <Field label={t('content.body')} error={errors.body?.message}>
        <textarea rows={10} aria-describedby="page-body-hint" {...register('body')} />
      </Field>
      <p id="page-body-hint" className="ops-muted">
        {t('content.bodyHint')}
      </p>
      <FormEnd
        error={errors.root?.message}
        done={saved}
        doneTestId="page-saved"
        busy={formState.isSubmitting || page.isPending}
        submit={t('content.save')}
      />
    </form>
  );
}

const maxBanners = 10;
const bannersSchema = z.object({
  banners: z
    .array(
      z.object({
        title: required(60),
        subtitle: z.string().trim().max(120, 'content.max120'),
        link: z
          .string()
          .trim()
          .regex(
            /^(\/pages\/[A-Za-z-]+\/[A-Za-z-]+(\?[A-Za-z0-9=&_.-]*)?)?$/,
            'content.linkFormat',
          ),
        theme: z.enum(bannerThemes),
      }),
    )
    .max(maxBanners),
});
type BannerFields = z.infer<typeof bannersSchema>;

/** One language's Home banners, in order: edit, add, remove, save the whole set. */
export function BannersForm() {
  const { t } = useT();
  const [lang, setLang] = useState<Language>('zh-CN');
  const [saved, setSaved] = useState<string | null>(null);
  const home = useQuery({
    queryKey: ['home-banners', lang],
    queryFn: () => call(content.home, { query: { lang } }),
    ...readOnce,
  });
  const { register, handleSubmit, formState, reset, setError, control } = useForm<BannerFields>({
    resolver: zodResolver(bannersSchema),
    defaultValues: { banners: [] },
  });
  const { fields, append, remove } = useFieldArray({ control, name: 'banners' });
  useEffect(() => {
    if (home.data) reset({ banners: home.data.banners.map((b) => ({ ...b, link: b.link ?? '' })) });
  }, [home.data, reset]);
  const { errors } = formState;
  const save = async ({ banners }: BannerFields) => {
    setSaved(null);
    try {
      await call(ops.setBanners, {
        params: { lang },
        body: { banners: banners.map((b) => ({ ...b, link: b.link || null })) },
      });
      setSaved(
        t('content.bannersSaved', { count: banners.length, lang: t(`content.languages.${lang}`) }),
      );
    } catch (err) {
      refuse(err, [], setError, t);
    }
  };
  return (
    <form
      className="ops-card ops-stack"
      onSubmit={handleSubmit(save)}
      noValidate
      data-testid="banners-form"
    >
      <h2>{t('content.bannersTitle')}</h2>
      <LanguagePicker id="banners-lang" value={lang} onChange={setLang} />
      <p className="ops-muted">{t('content.bannersHint')}</p>
      {fields.map((field, i) => (
        <fieldset key={field.id} className="ops-banner" data-testid="banner-row">
          <legend>{t('content.bannerN', { n: i + 1 })}</legend>
          <Field label={t('content.title')} error={errors.banners?.[i]?.title?.message}>
            <input autoComplete="off" {...register(`banners.${i}.title`)} />
          </Field>
          <Field label={t('content.subtitle')} error={errors.banners?.[i]?.subtitle?.message}>
            <input autoComplete="off" {...register(`banners.${i}.subtitle`)} />
          </Field>
          <Field label={t('content.link')} error={errors.banners?.[i]?.link?.message}>
            <input
              autoComplete="off"

              {...register(`banners.${i}.link`)}
            />
          </Field>
          <div className="ops-row">
            <label className="ops-field">
              <span>{t('content.theme')}</span>
              <select {...register(`banners.${i}.theme`)}>
                {bannerThemes.map((theme) => (
                  <option key={theme} value={theme}>
                    {t(`content.themes.${theme}`)}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className="ops-btn" onClick={() => remove(i)}>
              {t('content.removeBanner', { n: i + 1 })}
            </button>
          </div>
        </fieldset>
      ))}
      {errors.root?.message && <p className="ops-alert">{errors.root.message}</p>}
      {saved && (
        <p className="ops-notice ops-ok" role="status" data-testid="banners-saved">
          {saved}
        </p>
      )}
      <div className="ops-row-end">
        <button
          type="button"
          className="ops-btn"
          disabled={fields.length >= maxBanners}
          onClick={() => append({ title: '', subtitle: '', link: '', theme: 'blue' })}
        >
          {t('content.addBanner')}
        </button>
        <button
          type="submit"
          className="ops-btn ops-primary"
          disabled={formState.isSubmitting || home.isPending}
        >
          {t('content.saveBanners')}
        </button>
      </div>
    </form>
  );
}
