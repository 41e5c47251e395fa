import { useTranslation } from 'react-i18next';
import { useAppInfo } from '@client/state';
import './brand.css';

/**
 * The app's mark: APP_LOGO_URL when the operator set one, else this built-in one (a rising line
 * in a rounded square, in the accent colour: legible at 24 px, in both themes). Decorative: the
 * name beside it is what is read out.
 */
export function BrandMark({ size = 28 }: { size?: number }) {
  const logo = useAppInfo()?.logoUrl;
  if (logo)
    return (
      <img
        className="brand__logo"
        src={logo}
        alt=""
        width={size}
        height={size}
        data-testid="logo"
      />
    );
  return (
    <svg
      className="brand__logo"
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      data-testid="logo"
    >
      <rect width="32" height="32" rx="8" fill="var(--accent)" />
      <path
        d="M7 21.5 13 15.5l4 4 8-9"
        fill="none"
        stroke="var(--accent-contrast)"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="25" cy="10.5" r="2.2" fill="var(--accent-contrast)" />
    </svg>
  );
}

/** The app's name (APP_NAME; the generic title until app info has loaded). */
export function useAppName(): string {
  const { t } = useTranslation();
  return useAppInfo()?.name ?? t('app.title');
}

/** Mark and name in a row: the home page's title, and the top of login and registration. */
export function Brand({ large = false }: { large?: boolean }) {
  const name = useAppName();
  return (
    <span className={large ? 'brand brand--large' : 'brand'}>
      <BrandMark size={large ? 40 : 28} />
      <span className="brand__name" data-testid="app-name">
        {name}
      </span>
    </span>
  );
}
