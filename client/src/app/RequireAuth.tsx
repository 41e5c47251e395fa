import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useIsLoggedIn } from '@client/state/session';
import { guardRedirect } from './guard';

/** Sends a signed-out visitor of a guarded page to login, with the way back in `redirect`. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const loggedIn = useIsLoggedIn();
  const to = guardRedirect(location, loggedIn);
  return to ? <Navigate to={to} replace /> : children;
}
