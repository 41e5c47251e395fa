import type { PageTitleKey } from '@client/i18n/keys';

/** Pages that are built; every other route shows the shared "not available yet" page. */
export type BuiltPage =
  | 'home'
  | 'product'
  | 'detail'
  | 'login'
  | 'registerCheck'
  | 'register'
  | 'user'
  | 'settings'
  | 'password'
  | 'orders'
  | 'recharge'
  | 'rechargeBank'
  | 'rechargeTrc20'
  | 'rechargeErc20'
  | 'transfer'
  | 'depositList'
  | 'withdrawList'
  | 'account'
  | 'accountDetail'
  | 'withdraw'
  | 'moneyRecord'
  | 'verify'
  | 'savings'
  | 'savingsRecords'
  | 'savingsRules'
  | 'messages'
  | 'aboutUs'
  | 'privacy'
  | 'privacy2'
  | 'news';

export interface AppRoute {
  path: string;
  title: PageTitleKey;
  page: BuiltPage | null;
  /** Set on the four routes of the bottom tab bar. */
  tab?: boolean;
  /** Needs a signed-in user: anyone else is sent to the login page and back (guard.ts). */
  auth?: boolean;
}

export const HOME = '/pages/index/index';
export const LOGIN = '/pages/login/login';
export const USER = '/pages/user/user';

/** Entry aliases that lead to the home page (seed spec §2: "/ (alias /pages/welcome/welcome)"). */
export const homeAliases = ['/', '/pages/welcome/welcome'];

/** Every route of seed spec §2, in its order. */
export const appRoutes: AppRoute[] = [
  { path: HOME, title: 'pages.home', page: 'home', tab: true },
  { path: '/pages/product/product', title: 'pages.product', page: 'product', tab: true },
  { path: '/pages/money/money', title: 'pages.money', page: 'savings', tab: true, auth: true },
  { path: USER, title: 'pages.user', page: 'user', tab: true, auth: true },
  { path: LOGIN, title: 'pages.login', page: 'login' },
  { path: '/pages/login/registerCheck', title: 'pages.registerCheck', page: 'registerCheck' },
  { path: '/pages/login/register', title: 'pages.register', page: 'register' },
  { path: '/pages/set/set', title: 'pages.settings', page: 'settings', auth: true },
  { path: '/pages/account/account', title: 'pages.account', page: 'account', auth: true },
  {
    path: '/pages/account/account-detail',
    title: 'pages.accountDetail',
    page: 'accountDetail',
    auth: true,
  },
  {
    path: '/pages/money-record/money-record',
    title: 'pages.moneyRecord',
    page: 'moneyRecord',
    auth: true,
  },
  { path: '/pages/order/order', title: 'pages.orders', page: 'orders', auth: true },
  {
    path: '/pages/withdraw-list/withdraw-list',
    title: 'pages.withdrawList',
    page: 'withdrawList',
    auth: true,
  },
  {
    path: '/pages/withdraw-list/withdraw-open',
    title: 'pages.depositList',
    page: 'depositList',
    auth: true,
  },
  { path: '/pages/verify/verify', title: 'pages.verify', page: 'verify', auth: true },
  {
    path: '/pages/withdraw-money/withdraw-money',
    title: 'pages.withdraw',
    page: 'withdraw',
    auth: true,
  },
  { path: '/pages/message/message', title: 'pages.messages', page: 'messages', auth: true },
  { path: '/pages/aboutUs/aboutUs', title: 'pages.aboutUs', page: 'aboutUs' },
  { path: '/pages/transfer/transfer', title: 'pages.transfer', page: 'transfer', auth: true },
  {
    path: '/pages/Particulars/Particulars',
    title: 'pages.particulars',
    page: 'savingsRecords',
    auth: true,
  },
  { path: '/pages/money/detail', title: 'pages.savingsRules', page: 'savingsRules' },
  { path: '/pages/Detail/Detail', title: 'pages.detail', page: 'detail' },
  { path: '/pages/yinsi/yinsi', title: 'pages.privacy', page: 'privacy' },
  { path: '/pages/yinsi/gy', title: 'pages.privacy2', page: 'privacy2' },
  { path: '/pages/password/password', title: 'pages.password', page: 'password', auth: true },
  { path: '/pages/index/detail', title: 'pages.news', page: 'news' },
  { path: '/pages/recharge/recharge', title: 'pages.recharge', page: 'recharge', auth: true },
  {
    path: '/pages/recharge/recharge-bank-card',
    title: 'pages.rechargeBank',
    page: 'rechargeBank',
    auth: true,
  },
  {
    path: '/pages/recharge/recharge-usdt-trc20',
    title: 'pages.rechargeTrc20',
    page: 'rechargeTrc20',
    auth: true,
  },
  {
    path: '/pages/recharge/recharge-usdt-erc20',
    title: 'pages.rechargeErc20',
    page: 'rechargeErc20',
    auth: true,
  },
];

/** The tab routes, in tab bar order. */
export const tabRoutes = appRoutes.filter((r) => r.tab);

export function isTabPath(pathname: string): boolean {
  return tabRoutes.some((r) => r.path.toLowerCase() === pathname.toLowerCase());
}
