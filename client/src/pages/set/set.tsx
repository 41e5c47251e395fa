import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from '@client/components/ConfirmDialog';
import { ChevronIcon } from '@client/components/icons';
import { LanguageSelect } from '@client/components/LanguageSelect';
import { PageHeader } from '@client/components/PageHeader';
import { clearCache } from '@client/state';
import '@client/pages/user/user.css';
import { MarketColorsSelect } from './MarketColorsSelect';
import { SkipConfirmToggle } from './SkipConfirmToggle';
import { ResultAlerts } from './ResultAlerts';
import { ThemeSelect } from './ThemeSelect';
import { paths } from '@client/app/route-table';

/** /pages/set/set: language, theme, market colours, password changes, and clearing the cache (which signs out). */
export function SettingsPage() {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [clearing, setClearing] = useState(false);

  // Signing out makes the route guard send this (guarded) page to login; see user.tsx.
  const confirmClear = () => {
    setClearing(true);
    void clearCache();
  };

  return (
    <>
      <PageHeader title={t('pages.settings')} back />
      <section className="menu" aria-labelledby="settings-general">
        <h2 id="settings-general" className="menu__heading">
          {t('account.settings.general')}
        </h2>
        <div className="menu__row menu__row--static">
          <LanguageSelect testId="language-select" showLabel />
        </div>
        <div className="menu__row menu__row--static">
          <ThemeSelect />
        </div>
        <div className="menu__row menu__row--static">
          <MarketColorsSelect />
        </div>
        <div className="menu__row menu__row--static">
          <SkipConfirmToggle />
        </div>
        <ResultAlerts />
        <button
          type="button"
          className="menu__row"
          data-testid="clear-cache"
          onClick={() => setAsking(true)}
        >
          <span>{t('account.settings.clearCache')}</span>
          <ChevronIcon className="menu__chevron" />
        </button>
      </section>
      <nav className="menu" aria-labelledby="settings-security">
        <h2 id="settings-security" className="menu__heading">
          {t('account.settings.security')}
        </h2>
        <ul>
          <li>
            <Link
              to={`${paths.password}?kind=login`}
              className="menu__row"
              data-testid="change-password"
            >
              <span>{t('account.settings.changePassword')}</span>
              <ChevronIcon className="menu__chevron" />
            </Link>
          </li>
          <li>
            <Link
              to={`${paths.password}?kind=trade`}
              className="menu__row"
              data-testid="change-trade-password"
            >
              <span>{t('account.settings.changeTradePassword')}</span>
              <ChevronIcon className="menu__chevron" />
            </Link>
          </li>
        </ul>
      </nav>
      {asking && (
        <ConfirmDialog
          title={t('account.settings.clearCache')}
          message={t('account.settings.clearCacheConfirm')}
          busy={clearing}
          onConfirm={confirmClear}
          onCancel={() => setAsking(false)}
        />
      )}
    </>
  );
}
