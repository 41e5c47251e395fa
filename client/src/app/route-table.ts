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
  | 'security'
  | 'password'
  | 'forgotPassword'
  | 'orders'
  | 'orderDetail'
  | 'stats'
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
  /** Set on the five routes of the bottom tab bar. */
  tab?: boolean;
  /** Needs a signed-in user: anyone else is sent to the login page and back (guard.ts). */
  auth?: boolean;
}

/**
 * The URL of every built page, from the product's route list. These strings appear here and
 * nowhere else in the client: code links to a page as `paths.<page>`.
 */
export const paths = {
  home: '/pages/index/index',
  product: '/pages/product/product',
  savings: '/pages/money/money',
  user: '/pages/user/user',
  login: '/pages/login/login',
  registerCheck: '/pages/login/registerCheck',
  register: '/pages/login/register',
  settings: '/pages/set/set',
  /** Two-factor sign-in, signed-in sessions, the anti-phishing phrase. */
  security: '/pages/security/security',
  account: '/pages/account/account',
  accountDetail: '/pages/account/account-detail',
  moneyRecord: '/pages/money-record/money-record',
  orders: '/pages/order/order',
  withdrawList: '/pages/withdraw-list/withdraw-list',
  depositList: '/pages/withdraw-list/withdraw-open',
  verify: '/pages/verify/verify',
  withdraw: '/pages/withdraw-money/withdraw-money',
  messages: '/pages/message/message',
  aboutUs: '/pages/aboutUs/aboutUs',
  transfer: '/pages/transfer/transfer',
  savingsRecords: '/pages/Particulars/Particulars',
  savingsRules: '/pages/money/detail',
  detail: '/pages/Detail/Detail',
  /** One order's details (`?id=<orderId>`). */
  orderDetail: '/pages/order/detail',
  /** The trader's statistics (`?days=7|30|90`). */
  stats: '/pages/order/stats',
  privacy: '/pages/yinsi/yinsi',
  privacy2: '/pages/yinsi/gy',
  password: '/pages/password/password',
  /** A forgotten login password: reset through customer support. */
  forgotPassword: '/pages/password/forgot',
  news: '/pages/index/detail',
  recharge: '/pages/recharge/recharge',
  rechargeBank: '/pages/recharge/recharge-bank-card',
  rechargeTrc20: '/pages/recharge/recharge-usdt-trc20',
  rechargeErc20: '/pages/recharge/recharge-usdt-erc20',
} as const satisfies Record<BuiltPage, string>;

export const HOME = paths.home;
export const LOGIN = paths.login;

/** Entry aliases that lead to the home page (seed spec §2: "/ (alias /pages/welcome/welcome)"). */
export const homeAliases = ['/', '/pages/welcome/welcome'];

/** Every route of seed spec §2, in its order. */
export const appRoutes: AppRoute[] = [
  { path: paths.home, title: 'pages.home', page: 'home', tab: true },
  { path: paths.product, title: 'pages.product', page: 'product', tab: true },
  { path: paths.savings, title: 'pages.money', page: 'savings', tab: true, auth: true },
  { path: paths.user, title: 'pages.user', page: 'user', tab: true, auth: true },
  { path: paths.login, title: 'pages.login', page: 'login' },
  { path: paths.registerCheck, title: 'pages.registerCheck', page: 'registerCheck' },
  { path: paths.register, title: 'pages.register', page: 'register' },
  { path: paths.settings, title: 'pages.settings', page: 'settings', auth: true },
  { path: paths.security, title: 'pages.security', page: 'security', auth: true },
  { path: paths.account, title: 'pages.account', page: 'account', auth: true },
  {
    path: paths.accountDetail,
    title: 'pages.accountDetail',
    page: 'accountDetail',
    auth: true,
  },
  {
    path: paths.moneyRecord,
    title: 'pages.moneyRecord',
    page: 'moneyRecord',
    auth: true,
  },
  { path: paths.orders, title: 'pages.orders', page: 'orders', tab: true, auth: true },
  { path: paths.orderDetail, title: 'pages.orderDetail', page: 'orderDetail', auth: true },
  { path: paths.stats, title: 'pages.stats', page: 'stats', auth: true },
  {
    path: paths.withdrawList,
    title: 'pages.withdrawList',
    page: 'withdrawList',
    auth: true,
  },
  {
    path: paths.depositList,
    title: 'pages.depositList',
    page: 'depositList',
    auth: true,
  },
  { path: paths.verify, title: 'pages.verify', page: 'verify', auth: true },
  {
    path: paths.withdraw,
    title: 'pages.withdraw',
    page: 'withdraw',
    auth: true,
  },
  { path: paths.messages, title: 'pages.messages', page: 'messages', auth: true },
  { path: paths.aboutUs, title: 'pages.aboutUs', page: 'aboutUs' },
  { path: paths.transfer, title: 'pages.transfer', page: 'transfer', auth: true },
  {
    path: paths.savingsRecords,
    title: 'pages.particulars',
    page: 'savingsRecords',
    auth: true,
  },
  { path: paths.savingsRules, title: 'pages.savingsRules', page: 'savingsRules' },
  { path: paths.detail, title: 'pages.detail', page: 'detail' },
  { path: paths.privacy, title: 'pages.privacy', page: 'privacy' },
  { path: paths.privacy2, title: 'pages.privacy2', page: 'privacy2' },
  { path: paths.password, title: 'pages.password', page: 'password', auth: true },
  { path: paths.forgotPassword, title: 'pages.forgotPassword', page: 'forgotPassword' },
  { path: paths.news, title: 'pages.news', page: 'news' },
  { path: paths.recharge, title: 'pages.recharge', page: 'recharge', auth: true },
  {
    path: paths.rechargeBank,
    title: 'pages.rechargeBank',
    page: 'rechargeBank',
    auth: true,
  },
  {
    path: paths.rechargeTrc20,
    title: 'pages.rechargeTrc20',
    page: 'rechargeTrc20',
    auth: true,
  },
  {
    path: paths.rechargeErc20,
    title: 'pages.rechargeErc20',
    page: 'rechargeErc20',
    auth: true,
  },
];

/** The tab routes, in route order (TabBar.tsx puts Orders between Products and Savings). */
export const tabRoutes = appRoutes.filter((r) => r.tab);

export function isTabPath(pathname: string): boolean {
  return tabRoutes.some((r) => r.path.toLowerCase() === pathname.toLowerCase());
}
