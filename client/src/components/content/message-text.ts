import type { TFunction } from 'i18next';
import type { Message, SystemMessageKind } from '@shared/content/model';
import { formatClock, formatDateTime, formatMoney, formatPrice } from '@client/i18n/format';
import { paths } from '@client/app/route-table';
import { productDisplayName } from '@shared/product-names';
import { defaultLanguage, isLanguage } from '@client/i18n/languages';

/** The account-security page (sessions, two-factor, the anti-phishing phrase). */
export const SECURITY_PAGE = paths.security;

/** Languages written without a space between sentences. */
const closedUp = new Set(['ja', 'zh-CN', 'zh-TW']);

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
  price_alert: paths.detail,
  security_sign_in: SECURITY_PAGE,
  security_password: SECURITY_PAGE,
  security_two_factor_on: SECURITY_PAGE,
  security_two_factor_off: SECURITY_PAGE,
  security_two_factor_reset: SECURITY_PAGE,
  security_withdrawal_account: SECURITY_PAGE,
  security_withdrawal: paths.withdrawList,
};

/** A decimal price string as the language writes it, with the decimals it has. */
const alertPrice = (price: string | undefined, lang: string): string =>
  price === undefined ? '' : formatPrice(price, price.split('.')[1]?.length ?? 0, lang);

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
    // A fired price alert: its tick's price, time and number, and the alert's threshold.
    price: alertPrice(params.price, lang),
    threshold: alertPrice(params.threshold, lang),
    time: params.at === undefined ? '' : formatClock(params.at, lang, true),
    // A two-factor reset: when it takes effect at the earliest (days away: the date too).
    when: params.at === undefined ? '' : formatDateTime(params.at, lang),
    tick: params.tick ?? '',
    reason:
      message.kind === 'order_void' ? t(`orders.voidReason.${voidReason}`) : (params.reason ?? ''),
    // A security message: the device signed in on, and which password changed.
    device: params.device ?? '',
    password: t(`content.messages.passwords.${params.which === 'trade' ? 'trade' : 'login'}`),
  };
  const body = t(`content.messages.kinds.${message.kind}.body`, values);
  // The user's anti-phishing phrase, when the message was written with one: a message without
  // it (or with another) did not come from the platform.
  const phrase = params.phrase ? t('content.messages.phrase', { phrase: params.phrase }) : null;
  return {
    title: t(`content.messages.kinds.${message.kind}.title`),
    body: phrase ? `${body}${closedUp.has(lang) ? '' : ' '}${phrase}` : body,
  };
}
