import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { PageTitleKey } from '@client/i18n/keys';
import { HOME_PATH, PageHeader } from './PageHeader';

/**
 * The one page every route whose feature is not built yet shows: it says so plainly and shows
 * no sample figures, so nobody mistakes a placeholder for their money or their orders.
 */
export function NotAvailablePage({
  titleKey,
  back = true,
}: {
  titleKey: PageTitleKey;
  back?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(titleKey)} back={back} />
      <section className="notice-page" aria-labelledby="not-available-title">
        <h2 id="not-available-title">{t('common.notAvailableTitle')}</h2>
        <p>{t('common.notAvailableBody')}</p>
        <Link className="button" to={HOME_PATH}>
          {t('common.goHome')}
        </Link>
      </section>
    </>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('common.notFoundTitle')} back />
      <section className="notice-page">
        <p>{t('common.notFoundBody')}</p>
        <Link className="button" to={HOME_PATH}>
          {t('common.goHome')}
        </Link>
      </section>
    </>
  );
}
