import type { TFunction } from 'i18next';
import type { Message, SystemMessageKind } from '@shared/content';
import { formatMoney } from '@client/i18n/format';

/** Where the user can see more about what a message reports. */
export const messageLinks: Record<SystemMessageKind, string> = {
  deposit_approved: '/pages/withdraw-list/withdraw-open',
  deposit_rejected: '/pages/withdraw-list/withdraw-open',
  withdrawal_succeeded: '/pages/withdraw-list/withdraw-list',
  withdrawal_failed: '/pages/withdraw-list/withdraw-list',
  kyc_verified: '/pages/verify/verify',
  kyc_rejected: '/pages/verify/verify',
};

/**
 * A message's title and body in the reader's language: system kinds are worded here from their
 * parameters (so they follow a language switch); an operator's message is shown as written.
 */
export function messageText(
  t: TFunction,
  message: Pick<Message, 'kind' | 'params' | 'title' | 'body'>,
  lang: string,
  currency: string,
): { title: string; body: string } {
  if (message.kind === 'custom') return { title: message.title, body: message.body };
  const values = {
    amount: formatMoney(message.params.amount ?? 0, lang),
    currency,
    reason: message.params.reason ?? '',
  };
  return {
    title: t(`content.messages.kinds.${message.kind}.title`),
    body: t(`content.messages.kinds.${message.kind}.body`, values),
  };
}
