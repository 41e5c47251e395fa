import type { TFunction } from 'i18next';
import type { Message, SystemMessageKind } from '@shared/content';
import { formatMoney } from '@client/i18n/format';
import { paths } from '@client/app/route-table';
import { productDisplayName } from '@shared/product-names';
import { defaultLanguage, isLanguage } from '@client/i18n/languages';

/** Where the user can see more about what a message reports. */
export const messageLinks: Record<SystemMessageKind, string> = {
  deposit_approved: paths.depositList,
  deposit_credited: paths.depositList,
  deposit_rejected: paths.depositList,
  withdrawal_succeeded: paths.withdrawList,
  withdrawal_failed: paths.withdrawList,
  kyc_verified: paths.verify,
  kyc_rejected: paths.verify,
  order_won: paths.orders,
  order_lost: paths.orders,
  order_draw: paths.orders,
  order_void: paths.orders,
};

const voidReasons = ['FEED_STALE', 'NO_ENTRY_TICK'] as const;
type VoidReasonKey = (typeof voidReasons)[number] | 'other';

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
  const { params } = message;
  const product = params.product ?? '';
  // A void order's reason is a code, worded like the order's own card; a review's is text.
  const voidReason: VoidReasonKey = voidReasons.find((r) => r === params.reason) ?? 'other';
  const values = {
    amount: formatMoney(params.amount ?? 0, lang),
    payout: formatMoney(params.payout ?? 0, lang),
    currency,
    product: productDisplayName(
      { id: product, name: product },
      isLanguage(lang) ? lang : defaultLanguage,
    ),
    ref: params.ref ?? '',
    reason:
      message.kind === 'order_void' ? t(`orders.voidReason.${voidReason}`) : (params.reason ?? ''),
  };
  return {
    title: t(`content.messages.kinds.${message.kind}.title`),
    body: t(`content.messages.kinds.${message.kind}.body`, values),
  };
}
