/** Client state: jotai atoms over the streams, and the hooks screens use to read them. */
export { useConnection, useMarket, useOffline, useProductEvents } from './market';
export { prefetchProducts, useProduct, useProducts, type LiveRequest } from './products';
export { mergeLive, type LiveProduct } from './live-product';
export { useRequest, type RequestState } from './request';
export {
  clearCache,
  clearSessionEnded,
  login,
  logout,
  refreshUser,
  setRegisterInfo,
  signIn,
  signOut,
  startSession,
  useAppInfo,
  useIsLoggedIn,
  useRegisterInfo,
  useSessionEnded,
  useToken,
  useUser,
  type SessionEndedNotice,
} from './session';
export { showToast, useToast, TOAST_MS, type ToastMessage } from './toast';
export { useAccountSummary, type SummaryState } from './account';
export { useTradeMode } from './trade-mode';
export { useSavings, type SavingsState } from './savings';
export { noteMessagesRead, refreshUnreadCount, useMessageEvents, useUnreadCount } from './messages';
