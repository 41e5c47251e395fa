import { useTranslation } from 'react-i18next';
import { PageHeader } from '@client/components/PageHeader';
import { useOffline } from '@client/state/market';
import { PhraseSection } from './PhraseSection';
import { SessionsSection } from './SessionsSection';
import { TwoFactorSection } from './TwoFactorSection';
import { TwoFactorResetNotice } from './TwoFactorResetNotice';
import '@client/components/form/form.css';
import '@client/components/wallet/wallet.css';
import '@client/pages/login/code-field.css';
import './security.css';

/**
 * /pages/security/security: two-factor sign-in (on with the transaction password, a scan and a
 * first code, then ten recovery codes shown once; off with a code), the signed-in sessions
 * (this device marked, the others signed out one by one or all together), and the
 * anti-phishing phrase that security messages and the sign-in page show.
 */
export function SecurityPage() {
  const { t } = useTranslation();
  // Offline, the changes wait (the app's banner says why); what was read stays on screen.
  const offline = useOffline();
  return (
    <>
      <PageHeader title={t('pages.security')} back />
      <div className="wallet-page security-page">
        <p className="page-intro">{t('security.intro')}</p>
        {offline && (
          <p className="notice" role="status" data-testid="security-offline">
            {t('security.offline')}
          </p>
        )}
        <TwoFactorResetNotice offline={offline} />
        <TwoFactorSection offline={offline} />
        <SessionsSection offline={offline} />
        <PhraseSection offline={offline} />
      </div>
    </>
  );
}
