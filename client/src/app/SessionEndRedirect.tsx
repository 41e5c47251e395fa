import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { clearSessionEnded, useSessionEnded } from '@client/state/session';
import { loginPath, needsLogin } from './guard';
import { LOGIN } from './route-table';

/**
 * When the server ends the session under the user (state/session.ts), takes them to the login
 * page, where the notice says why, with the way back. A guarded page is left to its guard, which
 * does the same; a second navigation of ours would race with it. Once the user leaves the login
 * page without logging in, the notice has been seen and is dropped.
 */
export function SessionEndRedirect() {
  const ended = useSessionEnded();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const onLogin = pathname.toLowerCase() === LOGIN.toLowerCase();
  const shown = useRef<number | null>(null);

  useEffect(() => {
    if (!ended) return;
    if (onLogin) shown.current = ended.id;
    else if (shown.current === ended.id) clearSessionEnded();
    else if (!needsLogin(pathname)) void navigate(loginPath(pathname, search));
  }, [ended, onLogin, pathname, search, navigate]);

  return null;
}
