import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageHeader } from '@client/components/PageHeader';
import { useAppInfo } from '@client/state';
import { paths } from '@client/app/route-table';
import '@client/components/form/form.css';
import './forgot.css';

/**
 * /pages/password/forgot: a forgotten login password is reset by customer support, who check
 * that the account is the caller's (DECISIONS.md, Forgotten password): what to have ready, and
 * customer support one tap away, opened as everywhere else in the app (SERVICE_URL, new tab).
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const serviceUrl = useAppInfo()?.serviceUrl;
  return (
    <>
      <PageHeader title={t('pages.forgotPassword')} back />
      <div className="auth forgot">
        <h2 className="auth__heading">{t('account.forgot.heading')}</h2>
        <p>{t('account.forgot.body')}</p>
        <h3 className="forgot__title">{t('account.forgot.prepareTitle')}</h3>
        <ul className="forgot__list">
          <li>{t('account.forgot.prepareAccount')}</li>
          <li>{t('account.forgot.prepareIdentity')}</li>
          <li>{t('account.forgot.prepareMoney')}</li>
        </ul>
        <p className="forgot__note">{t('account.forgot.never')}</p>
        {serviceUrl && (
          <a
            className="button button--block"
            href={serviceUrl}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="contact-support"
          >
            {t('account.forgot.contact')}
          </a>
        )}
        <p className="auth__switch">
          <Link to={paths.login}>{t('account.forgot.backToLogin')}</Link>
        </p>
      </div>
    </>
  );
}
