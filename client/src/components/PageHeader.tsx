import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { BackIcon } from './icons';
import { paths } from '@client/app/route-table';

export const HOME_PATH = paths.home;

/** The page's title bar; `back` adds a back button (home when the page was opened directly). */
export function PageHeader({
  title,
  back = false,
  children,
}: {
  title: ReactNode;
  back?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  // 'default' is the key of the first entry: there is nothing of ours to go back to.
  const goBack = () => void (location.key === 'default' ? navigate(HOME_PATH) : navigate(-1));
  return (
    <header className="page-header">
      {back && (
        <button
          type="button"
          className="icon-button"
          onClick={goBack}
          aria-label={t('common.back')}
        >
          <BackIcon />
        </button>
      )}
      <h1 className="page-header__title">{title}</h1>
      {children && <div className="page-header__actions">{children}</div>}
    </header>
  );
}
