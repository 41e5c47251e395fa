import { Suspense, useEffect } from 'react';
import { ErrorBoundary } from '@client/components/ErrorBoundary';
import { lazy } from '@client/app/lazy-page';
import { useResults, useSettlementFeed } from '@client/state/result-sheet';
import { useIsLoggedIn } from '@client/state/session';

/** Its code and styles load with the first result, not with the app's first screen. */
const Sheet = lazy(() => import('./Sheet'));

/**
 * The result of a settled order, wherever the user is (mounted once by the layout): one result
 * as a card, several as one line ("3 orders settled: +120.00") with the list to expand. It folds
 * into a chip after a while and stays until dismissed; each result opens the order's details.
 * Not a modal: it never takes the focus from the page; a live region announces each result.
 */
export function ResultSheet() {
  useSettlementFeed();
  const results = useResults();
  // A signed-in trader will see results: fetch the sheet once the first screen has settled, so
  // a result never waits for its code.
  const signedIn = useIsLoggedIn();
  useEffect(() => {
    if (!signedIn) return;
    const timer = setTimeout(() => Sheet.preload(), 3000);
    return () => clearTimeout(timer);
  }, [signedIn]);
  if (results.length === 0) return null;
  return (
    <ErrorBoundary>
      <Suspense fallback={null}>
        <Sheet />
      </Suspense>
    </ErrorBoundary>
  );
}
