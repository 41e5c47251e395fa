import { amountToMinor, checkTypedAmount, sanitizeAmountInput } from '@shared/amount-input';
import type { z } from 'zod';
import {
  accountNumberProblem,
  bankAccountForm,
  normalizeAccountNumber,
  type BankAccountForm,
} from '@shared/wallet/bank-account';
import { txIdPatterns, type CoinNetwork, type DepositChannel } from '@shared/wallet/model';
import { isBlank, type MessageKey } from '@client/components/form/validation';
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
export const empty = msg('wallet.rules.empty');

/** How a text field's refusal reads: too long has its words; anything else is the generic one. */
export const textWording = {
  too_big: msg('wallet.rules.tooLong'),
  other: 'errors.VALIDATION_FAILED',
} as const;

/** The label of a withdrawal account's number for the holder's country: IBAN, card, account. */
export const accountNumberLabel = {
  iban: 'wallet.fields.iban',
  card: 'wallet.fields.cardNumber',
  account: 'wallet.fields.accountNumber',
} as const satisfies Record<BankAccountForm, string>;

/**
 * A withdrawal account's number, in the form its holder's nationality uses (the server's rule):
 * for an object schema's superRefine over `nationality` and `cardNumber`.
 */
export function accountNumberCheck(
  v: { nationality: string; cardNumber: string },
  ctx: z.RefinementCtx,
) {
  if (isBlank(v.cardNumber) || !accountNumberProblem(v.nationality, v.cardNumber)) return;
  const form = bankAccountForm(v.nationality);
  const message =
    v.nationality === 'JP'
      ? msg('wallet.rules.accountNumberJp')
      : msg(
          form === 'iban'
            ? 'wallet.rules.iban'
            : form === 'card'
              ? 'wallet.rules.cardNumber'
              : 'wallet.rules.accountNumber',
        );
  ctx.addIssue({ code: 'custom', path: ['cardNumber'], message });
}

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

/** Bank transfers are whole currency units: digits only, then the spec's amount-input rule. */
export const wholeAmountInput = (raw: string): string => {
  const digits = raw.replace(/\D/g, '');
  return digits === '' ? '' : sanitizeAmountInput(digits);
};

/** What a deposit entry credits, in minor units, or null when it is not a complete amount. */
export function depositCredit(channel: DepositChannel, input: string): number | null {
  const minor = amountToMinor(input.trim());
  if (minor === null) return null;
  return channel.channel === 'bank' ? minor : convertAtRate(minor, channel.rate);
}

/** The rule of a deposit amount or quantity: filled, complete, and within the channel's limits. */
export function depositAmountRule(channel: DepositChannel | null) {
  return (value: string): MessageKey | null => {
    if (isBlank(value)) return 'common.required';
    if (!channel) return null;
    if (channel.channel === 'bank' && !/^\d+$/.test(value.trim()))
      return msg('wallet.rules.wholeNumber');
    const credit = depositCredit(channel, value);
    if (credit === null || credit < channel.min || credit > channel.max)
      return 'errors.AMOUNT_OUT_OF_RANGE';
    return null;
  };
}

/**
 * A withdrawal amount within the server's limits (minor units), at most two decimals. The form
 * says which bound as it is typed (checkTypedAmount); this refuses the submit.
 */
export function withdrawAmountRule(limits: { min: number; max: number } | null) {
  return (value: string): MessageKey | null => {
    if (isBlank(value)) return 'common.required';
    if (!limits) return null;
    const check = checkTypedAmount(value, { ...limits, balance: null });
    return check.state === 'valid' ? null : 'errors.AMOUNT_OUT_OF_RANGE';
  };
}

/**
 * A USDT deposit's transaction id in its network's form (TRC20: 64 hex digits; ERC20: 0x and 64
 * hex digits), as the server checks it; spaces around it are forgiven.
 */
export function txIdRule(network: CoinNetwork) {
  return (value: string): MessageKey | null => {
    if (isBlank(value)) return 'common.required';
    return txIdPatterns[network].test(value.trim())
      ? null
      : msg(network === 'TRC20' ? 'wallet.rules.txIdTrc20' : 'wallet.rules.txIdErc20');
  };
}

/**
 * Whether a rate line tells the user anything: not "1 USDT = 1 USDT". The rate is shown to at
 * least two decimals ("1.00"), as many as it has beyond that.
 */
export function rateShown(rate: string, currency: string): string | null {
  if (currency === 'USDT' && Number(rate) === 1) return null;
  const [whole, fraction = ''] = rate.split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}
