import { lazy, Suspense, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { call, onSessionChange, writeSession } from './api';
import { opsI18n } from './i18n';
import { LanguageSwitch } from './components/LanguageSwitch';
import { useT } from './useT';
import { go, homeOf, href, opsPages, reaches, useRoute } from './router';
import * as ops from '@shared/operators/routes';
import { SignIn } from './pages/SignIn';
import { ReviewQueue } from './pages/ReviewQueue';

// The admin pages load when opened: a reviewer's console never fetches them (nor the QR code).
const AuditPage = lazy(() => import('./pages/Audit').then((m) => ({ default: m.AuditPage })));
const OperatorsPage = lazy(() =>
  import('./pages/Operators').then((m) => ({ default: m.OperatorsPage })),
);
const UsersPage = lazy(() => import('./pages/Users').then((m) => ({ default: m.UsersPage })));
const DashboardPage = lazy(() =>
  import('./pages/Dashboard').then((m) => ({ default: m.DashboardPage })),
);
const MarketsPage = lazy(() => import('./pages/Markets').then((m) => ({ default: m.MarketsPage })));
const ContentPage = lazy(() => import('./pages/Content').then((m) => ({ default: m.ContentPage })));

/**
 * Live without an operator socket (DECISIONS.md): every list refetches every 3 s and when the
 * window regains focus, so an item another operator decided leaves the queue within seconds.
 */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchInterval: 3000,
      refetchOnWindowFocus: true,
      retry: (count, err) => count < 2 && !(err as { status?: number }).status,
    },
  },
});

export function OpsApp() {
  return (
    <I18nextProvider i18n={opsI18n}>
      <QueryClientProvider client={queryClient}>
        <Session />
      </QueryClientProvider>
    </I18nextProvider>
  );
}

function Session() {
  const session = useSyncExternalStore(onSessionChange, () =>
    sessionStorage.getItem('ops.session'),
  );
  const client = useQueryClient();
  useEffect(() => {
    if (!session) client.clear();
  }, [session, client]);
  return session ? <Shell /> : <SignIn />;
}

function Shell() {
  const { t } = useT();
  const route = useRoute();
  const me = useQuery({
    queryKey: ['me'],
    queryFn: () => call(ops.operatorMe, {}),
    refetchInterval: 30_000,
  });
  const [signingOut, setSigningOut] = useState(false);
  const role = me.data?.role;
  const page = route[0];
  useEffect(() => {
    if (role && !page) go(homeOf(role));
  }, [role, page]);
  if (!me.data) {
    return (
      <div className="ops-center" role="status">
        {me.isError ? t('common.loadFailed') : t('common.loading')}
      </div>
    );
  }
  const signOut = async () => {
    setSigningOut(true);
    await call(ops.operatorLogout, {}).catch(() => undefined);
    writeSession(null);
    window.location.hash = '';
  };
  let body: ReactNode;
  if (!page) body = null;
  else if (!reaches(me.data.role, page))
    body = (
      <div className="ops-empty" data-testid="not-available">
        <h1>{t('common.notAvailableTitle')}</h1>
        <p>{t('common.notAvailable')}</p>
      </div>
    );
  else if (page === 'deposits' || page === 'withdrawals' || page === 'kyc')
    body = <ReviewQueue key={page} kind={page} />;
  else if (page === 'audit') body = <AuditPage tab={route[1]} />;
  else if (page === 'operators') body = <OperatorsPage />;
  else if (page === 'users') body = <UsersPage id={route[1]} />;
  else if (page === 'dashboard') body = <DashboardPage />;
  else if (page === 'markets') body = <MarketsPage />;
  else if (page === 'content') body = <ContentPage />;
  else body = <div className="ops-empty">{t('common.noSuchPage')}</div>;
  return (
    <div className="ops-shell">
      <nav className="ops-nav" aria-label={t('nav.label')}>
        <div className="ops-brand">{t('nav.brand')}</div>
        <ul>
          {opsPages
            .filter((p) => reaches(me.data.role, p.path))
            .map((p) => (
              <li key={p.path}>
                <a href={href(p.path)} aria-current={page === p.path ? 'page' : undefined}>
                  {t(`nav.${p.path}`)}
                </a>
              </li>
            ))}
        </ul>
        <div className="ops-nav-foot">
          <div className="ops-who" data-testid="operator-name">
            {me.data.name} · {t(`roles.${me.data.role}`)}
          </div>
          <LanguageSwitch />
          <button type="button" className="ops-btn" disabled={signingOut} onClick={signOut}>
            {t('nav.signOut')}
          </button>
        </div>
      </nav>
      <main className="ops-main">
        <Suspense fallback={<p className="ops-muted">{t('common.loading')}</p>}>{body}</Suspense>
      </main>
    </div>
  );
}
