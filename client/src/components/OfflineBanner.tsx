import { useTranslation } from 'react-i18next';
import { useOffline } from '@client/state/market';

/**
 * "Network signal lost", app-wide, driven by the watchdog in streams/watchdog.ts. The live
 * region stays in the page so screen readers announce the text when it appears.
 */
export function OfflineBanner() {
  const { t } = useTranslation();
  const offline = useOffline();
  return (
    <div className="offline-region" role="status" aria-live="polite">
      {offline && (
        <p className="offline-banner" data-testid="network-lost">
          {t('common.networkLost')}
        </p>
      )}
    </div>
  );
}
