import { lazy, Suspense, type ComponentType } from 'react';
import { HashRouter, Navigate, Route, Routes } from 'react-router-dom';
import { LoadingState } from '@client/components/StateViews';
import { Layout } from './Layout';
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
            {appRoutes.map(({ path, page, title, tab }) => {
              const Page = page ? pages[page] : null;
              return (
                <Route
                  key={path}
                  path={path}
                  element={Page ? <Page /> : <NotAvailablePage titleKey={title} back={!tab} />}
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
