import { useSyncExternalStore } from 'react';
import type { OperatorCaller } from '@shared/operators/routes';

type Role = OperatorCaller['role'];

/** The console's pages (a hash router: /ops/#/deposits), which roles reach each, in nav order. */
export const opsPages = [
  { path: 'dashboard', roles: ['admin'] },
  { path: 'deposits', roles: ['reviewer', 'admin'] },
  { path: 'withdrawals', roles: ['reviewer', 'admin'] },
  { path: 'kyc', roles: ['reviewer', 'admin'] },
  { path: 'users', roles: ['support', 'admin'] },
  { path: 'markets', roles: ['admin'] },
  { path: 'content', roles: ['admin'] },
  { path: 'audit', roles: ['admin'] },
  { path: 'operators', roles: ['admin'] },
] as const satisfies readonly { path: string; roles: readonly Role[] }[];

export const reaches = (role: Role, path: string) =>
  role === 'service' ||
  opsPages.some((p) => p.path === path && (p.roles as readonly Role[]).includes(role));

/** The first page a role reaches: where the console opens. */
export const homeOf = (role: Role) =>
  opsPages.find((p) => reaches(role, p.path))?.path ?? 'deposits';

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

/** The hash as path segments: `#/users/12` → ['users', '12']. */
export function useRoute(): string[] {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
}

export const href = (...segments: string[]) => `#/${segments.map(encodeURIComponent).join('/')}`;
export const go = (...segments: string[]) => {
  window.location.hash = href(...segments);
};
