import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { ErrorBoundary } from '@client/components/ErrorBoundary';
import { OfflineBanner } from '@client/components/OfflineBanner';
import { ResultSheet } from '@client/components/results/ResultSheet';
import { LoadingState } from '@client/components/StateViews';
import { Toaster } from '@client/components/Toast';
import { isTabPath } from './route-table';
import { SessionEndRedirect } from './SessionEndRedirect';
import { TabBar } from './TabBar';

/** The phone-width frame: offline banner on top, the page, and the tab bar on tab pages. */
export function Layout() {
  const { pathname } = useLocation();
  const withTabs = isTabPath(pathname);

  // A new page starts at its top, as it would in a native app. Braces matter: newer browsers
  // return a promise from scrollTo, and React would take it for a cleanup function.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <div className={`app${withTabs ? ' app--tabs' : ''}`}>
      <OfflineBanner />
      <SessionEndRedirect />
      <main className="app__main">
        {/* Keyed by path: a page that failed to load does not take the next one down with it. */}
        <ErrorBoundary key={pathname}>
          <Suspense fallback={<LoadingState />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Toaster />
      <ResultSheet />
      {withTabs && <TabBar />}
    </div>
  );
}
