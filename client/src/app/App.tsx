import { lazy, Suspense, type ComponentType } from 'react';
import { HashRouter, Navigate, Route, Routes } from 'react-router-dom';
import { LoadingState } from '@client/components/StateViews';
import { Layout } from './Layout';
import { RequireAuth } from './RequireAuth';
import { appRoutes, HOME, homeAliases, type BuiltPage } from './route-table';
import './app.css';
import '@client/components/components.css';

// Every page is its own chunk: the first load carries the shell, not the chart library.
const pages: Record<BuiltPage, ComponentType> = {
  home: lazy(() => import('@client/pages/index/index').then((m) => ({ default: m.HomePage }))),
  product: lazy(() =>
    import('@client/pages/product/product').then((m) => ({ default: m.ProductPage })),
  ),
  detail: lazy(() =>
    import('@client/pages/Detail/Detail').then((m) => ({ default: m.DetailPage })),
  ),
  login: lazy(() => import('@client/pages/login/login').then((m) => ({ default: m.LoginPage }))),
  registerCheck: lazy(() =>
    import('@client/pages/login/registerCheck').then((m) => ({ default: m.RegisterCheckPage })),
  ),
  register: lazy(() =>
    import('@client/pages/login/register').then((m) => ({ default: m.RegisterPage })),
  ),
  user: lazy(() => import('@client/pages/user/user').then((m) => ({ default: m.UserPage }))),
  settings: lazy(() => import('@client/pages/set/set').then((m) => ({ default: m.SettingsPage }))),
  password: lazy(() =>
    import('@client/pages/password/password').then((m) => ({ default: m.PasswordPage })),
  ),
};
const NotAvailablePage = lazy(() =>
  import('@client/components/NotAvailablePage').then((m) => ({ default: m.NotAvailablePage })),
);
const NotFoundPage = lazy(() =>
  import('@client/components/NotAvailablePage').then((m) => ({ default: m.NotFoundPage })),
);

export function App() {
  return (
    <HashRouter>
      {/* Outer Suspense: the language file may still be loading on a language switch. */}
      <Suspense fallback={<LoadingState />}>
        <Routes>
          <Route element={<Layout />}>
            {homeAliases.map((path) => (
              <Route key={path} path={path} element={<Navigate to={HOME} replace />} />
            ))}
            {appRoutes.map(({ path, page, title, tab, auth }) => {
              const Page = page ? pages[page] : null;
              const element = Page ? <Page /> : <NotAvailablePage titleKey={title} back={!tab} />;
              return (
                <Route
                  key={path}
                  path={path}
                  element={auth ? <RequireAuth>{element}</RequireAuth> : element}
                />
              );
            })}
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </Suspense>
    </HashRouter>
  );
}
