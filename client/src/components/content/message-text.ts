import type { TFunction } from 'i18next';
import type { Message, SystemMessageKind } from '@shared/content';

const amountFormats = new Map<string, Intl.NumberFormat>();

/** Minor units in the language's style with two decimals, exactly: 123456 → "1,234.56". */
export function formatMinor(minor: number, lang: string): string {
  let format = amountFormats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    amountFormats.set(lang, format);
  }
  const abs = Math.abs(minor);
  const decimal = `${minor < 0 ? '-' : ''}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return format.format(decimal as Intl.StringNumericLiteral);
}

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
    amount: formatMinor(message.params.amount ?? 0, lang),
    currency,
    reason: message.params.reason ?? '',
  };
  return {
    title: t(`content.messages.kinds.${message.kind}.title`),
    body: t(`content.messages.kinds.${message.kind}.body`, values),
  };
}
