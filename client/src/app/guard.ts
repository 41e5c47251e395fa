import { appRoutes, HOME, LOGIN, paths, type AppRoute } from './route-table';

/** Pages a finished login must not return to: they would only ask to log in again. */
const noReturn = [paths.login, paths.register, paths.registerCheck];

/** True when `pathname` is a route that needs a signed-in user (matched like the router: any case). */
export function needsLogin(pathname: string, routes: readonly AppRoute[] = appRoutes): boolean {
  const path = pathname.toLowerCase();
  return routes.some((r) => r.auth === true && r.path.toLowerCase() === path);
}

/** The login page, told to come back to `pathname + search` afterwards. */
export function loginPath(pathname: string, search = ''): string {
  return `${LOGIN}?${new URLSearchParams({ redirect: `${pathname}${search}` }).toString()}`;
}

/** Where the guard sends a visitor, or null to let them through. */
export function guardRedirect(
  location: { pathname: string; search: string },
  loggedIn: boolean,
  routes: readonly AppRoute[] = appRoutes,
): string | null {
  if (loggedIn || !needsLogin(location.pathname, routes)) return null;
  return loginPath(location.pathname, location.search);
}

/**
 * Where to go after login: the `redirect` parameter when it is a path inside this app, else
 * home. Anything else (another site, "//evil.example", a login page) is refused, so a crafted
 * link cannot send a freshly signed-in user somewhere else or into a loop.
 */
export function afterLoginPath(search: string): string {
  const target = new URLSearchParams(search).get('redirect') ?? '';
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return HOME;
  const lower = target.toLowerCase();
  if (noReturn.some((prefix) => lower.startsWith(prefix.toLowerCase()))) return HOME;
  return target;
}
