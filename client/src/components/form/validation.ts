import type { z } from 'zod';
import { ApiError } from '@client/api/client';
import {
  accountSchema,
  inviteCodeSchema,
  passwordSchema,
  phoneSchema,
  tradePasswordSchema,
} from '@shared/accounts';

/**
 * A message as a translation key: validation stays pure (testable without i18next) and the
 * screen translates at render time, so a language switch re-words errors already shown.
 */
export type MessageKey =
  | 'common.required'
  | 'account.rules.account'
  | 'account.rules.phone'
  | 'account.rules.password'
  | 'account.rules.tradePassword'
  | `errors.${string}`;

export type Values<F extends string> = Record<F, string>;
/** A field's rule: the message for `value` (the other fields in `values`), or null when fine. */
export type Rule<F extends string> = (value: string, values: Values<F>) => MessageKey | null;
export type Rules<F extends string> = Partial<Record<F, Rule<F>>>;
export type Errors<F extends string> = Partial<Record<F, MessageKey>>;

/** The one "required" rule: blank (or only spaces) is missing. */
export const required = (value: string): MessageKey | null =>
  value.trim() === '' ? 'common.required' : null;

/** Required, then the shared zod schema: the client refuses exactly what the server refuses. */
const schema =
  (s: z.ZodType, message: MessageKey) =>
  (value: string): MessageKey | null =>
    required(value) ?? (s.safeParse(value).success ? null : message);

/** The rules of DECISIONS.md ("Accounts"), from the shared schemas. */
export const rules = {
  required,
  account: schema(accountSchema, 'account.rules.account'),
  phone: schema(phoneSchema, 'account.rules.phone'),
  inviteCode: schema(inviteCodeSchema, 'errors.INVITE_INVALID'),
  password: schema(passwordSchema, 'account.rules.password'),
  tradePassword: schema(tradePasswordSchema, 'account.rules.tradePassword'),
  /** A confirmation: filled, and equal to the field `other`. */
  sameAs:
    <F extends string>(other: F, mismatch: MessageKey): Rule<F> =>
    (value, values) =>
      required(value) ?? (value === values[other] ? null : mismatch),
};

/** Every field's first problem; an empty object when the form may be sent. */
export function validateAll<F extends string>(values: Values<F>, ruleset: Rules<F>): Errors<F> {
  const errors: Errors<F> = {};
  for (const field of Object.keys(values) as F[]) {
    const message = ruleset[field]?.(values[field], values);
    if (message) errors[field] = message;
  }
  return errors;
}

/** Keeps only digits, at most `max` of them: the transaction password's keypad input. */
export function digitsOnly(value: string, max = 6): string {
  return value.replace(/\D/g, '').slice(0, max);
}

/**
 * Where a server refusal shows: on the input it names (`field`, when that input is on this
 * form), else above the form. A VALIDATION_FAILED on an input says what the rule is, from the
 * same client rule when it fails, else the generic text.
 */
export function serverErrors<F extends string>(
  error: unknown,
  values: Values<F>,
  ruleset: Rules<F>,
): { fields: Errors<F>; form: MessageKey | null } {
  const code = error instanceof ApiError ? error.code : 'UNKNOWN';
  const field = error instanceof ApiError ? error.field : undefined;
  const generic: MessageKey = `errors.${code}`;
  if (field === undefined || !(field in values)) return { fields: {}, form: generic };
  const name = field as F;
  const message =
    code === 'VALIDATION_FAILED' ? (ruleset[name]?.(values[name], values) ?? generic) : generic;
  return { fields: { [name]: message } as Errors<F>, form: null };
}
