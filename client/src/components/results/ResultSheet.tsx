import { Suspense, useEffect } from 'react';
import { ErrorBoundary } from '@client/components/ErrorBoundary';
import { lazy } from '@client/app/lazy-page';
import { useSheetOpen } from '@client/state/result-sheet';
import { useSettlementFeed } from '@client/state/unseen-results';
import { useIsLoggedIn } from '@client/state/session';
import { ResultToast } from './ResultToast';
import './results.css';

/** Its code loads when first opened, or a while after sign-in, not with the first screen. */
const Sheet = lazy(() => import('./Sheet'));

/**
 * Results, wherever the user is (mounted once by the layout): the toast of new results at the
 * top, and the results list when asked for. The feed behind them (unseen-results.ts) takes live
 * settlements and, on start and every reconnection, those settled while this device was away.
 */
export function ResultSheet() {
  useSettlementFeed();
  const open = useSheetOpen();
  const signedIn = useIsLoggedIn();
  useEffect(() => {
    if (!signedIn) return;
    const timer = setTimeout(() => Sheet.preload(), 3000);
    return () => clearTimeout(timer);
  }, [signedIn]);
  return (
    <>
      <ResultToast />
      {open && (
        <ErrorBoundary>
          <Suspense fallback={null}>
            <Sheet />
          </Suspense>
        </ErrorBoundary>
      )}
    </>
  );
}
