import type { TFunction } from 'i18next';
import { queryClient } from '@client/state/query-client';
import { showToast } from '@client/state';

/** The security page's reads, under `me` so that a sign-out drops them with the rest. */
export const securityKeys = {
  twoFactor: ['me', 'security', 'two-factor'] as const,
  twoFactorReset: ['me', 'security', 'two-factor-reset'] as const,
  sessions: ['me', 'security', 'sessions'] as const,
  phrase: ['me', 'security', 'anti-phishing'] as const,
};

/** Reads one of them again after a change. */
export function reload(key: readonly string[]): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: key });
}

/** Copies `text`, saying so (or that it could not) in a toast. */
export function copyText(t: TFunction, text: string): void {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (!clipboard) {
    showToast(t('common.copyFailed'));
    return;
  }
  clipboard.writeText(text).then(
    () => showToast(t('security.copied')),
    () => showToast(t('common.copyFailed')),
  );
}

/** Offers `text` as a file download (recovery codes kept offline). */
export function downloadText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
