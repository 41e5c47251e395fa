import { Suspense } from 'react';
import { HashRouter, Navigate, Route, Routes } from 'react-router-dom';
import { LoadingState } from '@client/components/StateViews';
import { prefetchProducts } from '@client/state/query-client';
// React.lazy with a retry: a page chunk that fails to load shows the chunk error with Retry.
import { lazy, type LazyPage } from './lazy-page';
import { Layout } from './Layout';
import { RequireAuth } from './RequireAuth';
import { appRoutes, HOME, homeAliases, type BuiltPage } from './route-table';
import './tokens.css';
import './app.css';
import '@client/components/components.css';
// What index.html's first paint of Home draws with (app/home-shell.ts): inlined with the above.
import '@client/components/brand.css';
import '@client/pages/home/home.css';

// Every page is its own chunk: the first load carries the shell, not the chart library.
const pages: Record<BuiltPage, LazyPage<object>> = {
  home: lazy(() => import('@client/pages/home/home').then((m) => ({ default: m.HomePage }))),
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
  security: lazy(() =>
    import('@client/pages/security/security').then((m) => ({ default: m.SecurityPage })),
  ),
  password: lazy(() =>
    import('@client/pages/password/password').then((m) => ({ default: m.PasswordPage })),
  ),
  forgotPassword: lazy(() =>
    import('@client/pages/password/forgot').then((m) => ({ default: m.ForgotPasswordPage })),
  ),
  orders: lazy(() => import('@client/pages/order/order').then((m) => ({ default: m.OrderPage }))),
  orderDetail: lazy(() =>
    import('@client/pages/order-detail/order-detail').then((m) => ({
      default: m.OrderDetailPage,
    })),
  ),
  stats: lazy(() => import('@client/pages/stats/stats').then((m) => ({ default: m.StatsPage }))),
  // Money and identity (issues 5 and 7).
  recharge: lazy(() =>
    import('@client/pages/recharge/recharge').then((m) => ({ default: m.RechargePage })),
  ),
  rechargeBank: lazy(() =>
    import('@client/pages/recharge/recharge-bank-card').then((m) => ({
      default: m.RechargeBankCardPage,
    })),
  ),
  rechargeTrc20: lazy(() =>
    import('@client/pages/recharge/recharge-usdt').then((m) => ({ default: m.RechargeTrc20Page })),
  ),
  rechargeErc20: lazy(() =>
    import('@client/pages/recharge/recharge-usdt').then((m) => ({ default: m.RechargeErc20Page })),
  ),
  transfer: lazy(() =>
    import('@client/pages/transfer/transfer').then((m) => ({ default: m.TransferPage })),
  ),
  depositList: lazy(() =>
    import('@client/pages/deposits/deposit-list').then((m) => ({
      default: m.DepositListPage,
    })),
  ),
  withdrawList: lazy(() =>
    import('@client/pages/withdrawals/withdrawal-list').then((m) => ({
      default: m.WithdrawalListPage,
    })),
  ),
  account: lazy(() =>
    import('@client/pages/account/account').then((m) => ({ default: m.AccountPage })),
  ),
  accountDetail: lazy(() =>
    import('@client/pages/account/account-detail').then((m) => ({ default: m.AccountDetailPage })),
  ),
  withdraw: lazy(() =>
    import('@client/pages/withdrawals/withdraw').then((m) => ({
      default: m.WithdrawPage,
    })),
  ),
  moneyRecord: lazy(() =>
    import('@client/pages/fund-records/fund-records').then((m) => ({ default: m.MoneyRecordPage })),
  ),
  verify: lazy(() =>
    import('@client/pages/verify/verify').then((m) => ({ default: m.VerifyPage })),
  ),
  // Savings balance (issue 8).
  savings: lazy(() =>
    import('@client/pages/savings/savings').then((m) => ({ default: m.SavingsPage })),
  ),
  savingsRecords: lazy(() =>
    import('@client/pages/savings/savings-records').then((m) => ({
      default: m.SavingsRecordsPage,
    })),
  ),
  savingsRules: lazy(() =>
    import('@client/pages/savings/savings-rules').then((m) => ({ default: m.SavingsRulesPage })),
  ),
  // Content (issue 9).
  messages: lazy(() =>
    import('@client/pages/message/message').then((m) => ({ default: m.MessagesPage })),
  ),
  aboutUs: lazy(() =>
    import('@client/pages/aboutUs/aboutUs').then((m) => ({ default: m.AboutUsPage })),
  ),
  privacy: lazy(() =>
    import('@client/pages/legal/privacy').then((m) => ({ default: m.PrivacyPage })),
  ),
  privacy2: lazy(() =>
    import('@client/pages/legal/privacy-notice').then((m) => ({ default: m.PrivacyNoticePage })),
  ),
  news: lazy(() =>
    import('@client/pages/home/news-detail').then((m) => ({ default: m.NewsDetailPage })),
  ),
};
const NotAvailablePage = lazy(() =>
  import('@client/components/NotAvailablePage').then((m) => ({ default: m.NotAvailablePage })),
);
const NotFoundPage = lazy(() =>
  import('@client/components/NotAvailablePage').then((m) => ({ default: m.NotFoundPage })),
);

/** Data a page needs before it can show anything, asked for with its chunk (see preloadPage). */
const pageData: Partial<Record<BuiltPage, () => void>> = {
  home: prefetchProducts,
  product: prefetchProducts,
};

/**
 * Starts fetching the chunk of the page at `hash` (`#/pages/…?…`) at once, alongside the
 * language files, instead of after them, and its product list with it: the first screen appears
 * a round trip sooner, and the prices with it. Resolves once the chunk is in (or failed).
 */
export function preloadPage(hash: string): Promise<void> {
  const path = hash.replace(/^#/, '').split('?')[0] ?? '';
  const route = appRoutes.find((r) => r.path === (homeAliases.includes(path) ? HOME : path));
  if (!route?.page) return Promise.resolve();
  pageData[route.page]?.();
  return pages[route.page].preload();
}

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
