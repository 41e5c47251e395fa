import type { TFunction } from 'i18next';
import type { Message, SystemMessageKind } from '@shared/content';
import { formatMoney } from '@client/i18n/format';
import { paths } from '@client/app/route-table';

/** Where the user can see more about what a message reports. */
export const messageLinks: Record<SystemMessageKind, string> = {
  deposit_approved: paths.depositList,
  deposit_rejected: paths.depositList,
  withdrawal_succeeded: paths.withdrawList,
  withdrawal_failed: paths.withdrawList,
  kyc_verified: paths.verify,
  kyc_rejected: paths.verify,
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
