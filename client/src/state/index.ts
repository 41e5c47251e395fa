/** Client state: jotai atoms over the streams, and the hooks screens use to read them. */
export { useOffline } from './market';
export { prefetchProducts, useProduct, useProducts, type LiveRequest } from './products';
export type { LiveProduct } from './live-product';
export { useRequest, type RequestState } from './request';
export {
  clearCache,
  clearSessionEnded,
  login,
  logout,
  refreshUser,
  setRegisterInfo,
  startSession,
  useAppInfo,
  useIsLoggedIn,
  useRegisterInfo,
  useSessionEnded,
  useUser,
} from './session';
export { showToast, useToast } from './toast';
export { useAccountSummary, type SummaryState } from './account';
export { useTradeMode } from './trade-mode';
export { useSavings } from './savings';
export { noteMessagesRead, useMessageEvents, useUnreadCount } from './messages';
