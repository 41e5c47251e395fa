/** Client state: jotai atoms over the streams, and the hooks screens use to read them. */
export { useProduct, useProducts, type LiveRequest } from './products';
export type { LiveProduct } from './live-product';
export { useApiQuery, type RequestState } from './queries';
export { queryKeys } from './query-client';
export {
  clearCache,
  login,
  logout,
  refreshUser,
  setRegisterInfo,
  useAppInfo,
  useIsLoggedIn,
  useRegisterInfo,
  useSessionEnded,
  useUser,
} from './session';
export { showToast } from './toast';
export { useAccountSummary, type SummaryState } from './account';
export { useTradeMode } from './trade-mode';
export { useSavings } from './savings';
export { noteMessagesRead, useUnreadCount } from './messages';
export {
  orderTabFrom,
  orderTabs,
  overdueOrders,
  type OrderTab,
  type OrdersPageTab,
} from './order-list';
export { applyOrder, loadOrderPage, orderListKey } from './orders';
