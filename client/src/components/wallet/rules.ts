import { amountToMinor, sanitizeAmountInput } from '@shared/amount-input';
import {
  accountNumberProblem,
  bankAccountForm,
  needsBranch,
  normalizeAccountNumber,
  type BankAccountForm,
} from '@shared/bank-account';
import { payerAccount } from '@shared/wallet.schemas';
import type { DepositChannel } from '@shared/wallet';
import { required, type MessageKey } from '@client/components/form/validation';
import type { Resources } from '@client/i18n/i18next';
import { convertAtRate, groupedDigits } from './money';

type WalletRuleKey = `wallet.rules.${keyof Resources['wallet']['rules']}`;
type KycRuleKey = `kyc.rules.${keyof Resources['kyc']['rules']}`;

/**
 * A message key of the wallet or kyc locale folders. The form's MessageKey names the shared
 * folders; these keys are checked against the locale files here, at compile time.
 */
export const msg = (key: WalletRuleKey | KycRuleKey): MessageKey => key as string as MessageKey;

/** Spec §8 "empty value": what a blank withdrawal account field says. */
export const notEmpty = (value: string): MessageKey | null =>
  value.trim() === '' ? msg('wallet.rules.empty') : null;

/** Text up to `max` characters, not blank. */
export const text =
  (max: number, blank: (v: string) => MessageKey | null = required) =>
  (value: string): MessageKey | null =>
    blank(value) ?? (value.trim().length > max ? msg('wallet.rules.tooLong') : null);

/** What a depositor paid from: a card or account number, or an IBAN (the server's rule). */
export const payerAccountRule =
  (blank: (v: string) => MessageKey | null = required) =>
  (value: string): MessageKey | null =>
    blank(value) ?? (payerAccount.safeParse(value).success ? null : msg('wallet.rules.cardNumber'));

/** The label of a withdrawal account's number for the holder's country: IBAN, card, account. */
export const accountNumberLabel = {
  iban: 'wallet.fields.iban',
  card: 'wallet.fields.cardNumber',
  account: 'wallet.fields.accountNumber',
} as const satisfies Record<BankAccountForm, string>;

/** A withdrawal account's number, in the form its holder's nationality uses (the server's rule). */
export const accountNumberRule =
  (nationalityOf: (values: Record<string, string>) => string) =>
  (value: string, values: Record<string, string>): MessageKey | null => {
    const blank = notEmpty(value);
    if (blank) return blank;
    const country = nationalityOf(values);
    if (!accountNumberProblem(country, value)) return null;
    if (country === 'JP') return msg('wallet.rules.accountNumberJp');
    const form = bankAccountForm(country);
    return msg(
      form === 'iban'
        ? 'wallet.rules.iban'
        : form === 'card'
          ? 'wallet.rules.cardNumber'
          : 'wallet.rules.accountNumber',
    );
  };

/**
 * A withdrawal account's number read back whole under its input, or null when that adds nothing.
 * An IBAN or a card in groups of four, as they are printed; an account number only when longer
 * than 16 digits (shorter ones show whole in the input on a 360 px phone), in the holder's own
 * separators when typed with some (123456-01-234567 is what the bankbook says), else in fours.
 */
export function accountNumberReadBack(country: string, raw: string): string | null {
  const value = normalizeAccountNumber(raw);
  if (!value) return null;
  if (bankAccountForm(country) !== 'account') return groupedDigits(value);
  if (value.length <= 16) return null;
  const typed = raw.trim();
  return /[\s-]/.test(typed) ? typed : groupedDigits(value);
}

/** The branch, asked only where the holder's country addresses transfers to one (JP). */
export const branchRule =
  (nationalityOf: (values: Record<string, string>) => string) =>
  (value: string, values: Record<string, string>): MessageKey | null =>
    needsBranch(nationalityOf(values)) ? text(60, notEmpty)(value) : null;

/** Bank transfers are whole currency units: digits only, then the spec's amount-input rule. */
export const wholeAmountInput = (raw: string): string => {
  const digits = raw.replace(/\D/g, '');
  return digits === '' ? '' : sanitizeAmountInput(digits);
};

/** Money typed by hand: the spec's amount-input rule (2 decimals, ≤ 0 → 1, capped). */
export const amountInput = (raw: string): string => sanitizeAmountInput(raw);

/** What a deposit entry credits, in minor units, or null when it is not a complete amount. */
export function depositCredit(channel: DepositChannel, input: string): number | null {
  const minor = amountToMinor(input.trim());
  if (minor === null) return null;
  return channel.channel === 'bank' ? minor : convertAtRate(minor, channel.rate);
}

/** The rule of a deposit amount or quantity: filled, complete, and within the channel's limits. */
export function depositAmountRule(channel: DepositChannel | null) {
  return (value: string): MessageKey | null => {
    const blank = required(value);
    if (blank || !channel) return blank;
    if (channel.channel === 'bank' && !/^\d+$/.test(value.trim()))
      return msg('wallet.rules.wholeNumber');
    const credit = depositCredit(channel, value);
    if (credit === null || credit < channel.min || credit > channel.max)
      return 'errors.AMOUNT_OUT_OF_RANGE';
    return null;
  };
}

/** A withdrawal amount within the server's limits (minor units). */
export function withdrawAmountRule(limits: { min: number; max: number } | null) {
  return (value: string): MessageKey | null => {
    const blank = required(value);
    if (blank || !limits) return blank;
    const minor = amountToMinor(value.trim());
    if (minor === null || minor < limits.min || minor > limits.max)
      return 'errors.AMOUNT_OUT_OF_RANGE';
    return null;
  };
}
