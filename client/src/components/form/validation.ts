import { z } from 'zod';
import { ApiError } from '@client/api/client';
import { tradePasswordLength } from '@shared/accounts/model';

/**
 * A message as a translation key: validation stays pure (testable without i18next) and the
 * screen translates at render time, so a language switch re-words errors already shown.
 */
export type MessageKey =
  | 'common.required'
  | 'account.rules.account'
  | 'account.rules.phone'
  | 'account.rules.phoneLocal'
  | 'account.rules.password'
  | 'account.rules.tradePassword'
  | `errors.${string}`;

/** The zod issue codes a form may word differently (zod's own names). */
type IssueCode = z.core.$ZodIssue['code'];

/** How a form words a shared schema's refusal: one key for any, or a key per issue code. */
export type Wording = MessageKey | (Partial<Record<IssueCode, MessageKey>> & { other: MessageKey });

/** The key of one zod issue under `wording`. */
export function wordIssue(issue: { code: string }, wording: Wording): MessageKey {
  if (typeof wording === 'string') return wording;
  return wording[issue.code as IssueCode] ?? wording.other;
}

/** Blank (or only spaces) is missing. */
export const isBlank = (value: string) => value.trim() === '';

/**
 * A text input checked by a shared schema: blank says `blank` (or passes when null: an optional
 * input), anything else is the shared schema's verdict on it, worded for the form. The client
 * refuses exactly what the server refuses, with limits read from one place.
 */
export function checked(
  shared: z.ZodType,
  wording: Wording,
  blank: MessageKey | null = 'common.required',
) {
  return z.string().superRefine((value, ctx) => {
    if (isBlank(value)) {
      if (blank) ctx.addIssue({ code: 'custom', message: blank });
      return;
    }
    const issue = shared.safeParse(value).error?.issues[0];
    if (issue) ctx.addIssue({ code: 'custom', message: wordIssue(issue, wording) });
  });
}

/** A text input that must be filled, and nothing else. */
export const required = (blank: MessageKey = 'common.required') =>
  z.string().refine((value) => !isBlank(value), { message: blank });

/**
 * A rule that depends on data from the server (a channel's limits): the message key for
 * `value`, or null when fine. Such limits are not in any schema, so the form asks the rule.
 */
export const ruled = (rule: (value: string) => MessageKey | null) =>
  z.string().superRefine((value, ctx) => {
    const message = rule(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/**
 * The rule of a picked file (a photo, a payment proof): present, with its bytes. A refinement,
 * not `z.custom`'s own check: a missing photo must not stop the form's cross-field rules.
 */
export const picked = <T extends { blob: Blob }>(missing: MessageKey) =>
  z.custom<T | null>().refine((value) => {
    const blob = (value as { blob?: unknown } | null)?.blob;
    return typeof Blob !== 'undefined' && blob instanceof Blob;
  }, missing);

/**
 * A confirmation: when `copy` is filled and differs from `original`, the issue on `copy`. For an
 * object schema's superRefine (a blank copy is its own field's "required").
 */
export function sameAs<F extends string>(original: F, copy: F, mismatch: MessageKey) {
  return (values: Record<F, string>, ctx: z.RefinementCtx) => {
    if (!isBlank(values[copy]) && values[copy] !== values[original])
      ctx.addIssue({ code: 'custom', path: [copy], message: mismatch });
  };
}

/** The longest input a shared string schema accepts (through pipes and optionals), if any. */
export function maxLengthOf(schema: z.ZodType): number | undefined {
  if (schema instanceof z.ZodString) return schema.maxLength ?? undefined;
  if (schema instanceof z.ZodPipe) return maxLengthOf(schema.in as z.ZodType);
  if (schema instanceof z.ZodOptional) return maxLengthOf(schema.unwrap() as z.ZodType);
  return undefined;
}

/** Keeps only digits, as many as a transaction password has: the keypad input. */
export function digitsOnly(value: string, max = tradePasswordLength): string {
  return value.replace(/\D/g, '').slice(0, max);
}

/** Each field's first message, as the form shows them. */
export type Errors<F extends string> = Partial<Record<F, MessageKey>>;

/** Every field's first problem under `schema`; an empty object when the form may be sent. */
export function validateAll<F extends string>(schema: z.ZodType, values: unknown): Errors<F> {
  const errors: Errors<F> = {};
  for (const issue of schema.safeParse(values).error?.issues ?? []) {
    const field = issue.path[0] as F;
    errors[field] ??= issue.message as MessageKey;
  }
  return errors;
}

/**
 * Where a server refusal shows: on the input it names (`field`, when that input is on this
 * form), else above the form. A VALIDATION_FAILED on an input says what the rule is, from the
 * form's schema when it refuses that input, else the generic text.
 */
export function serverErrors<F extends string>(
  error: unknown,
  values: Record<F, unknown>,
  schema: z.ZodType,
): { fields: Errors<F>; form: MessageKey | null } {
  const code = error instanceof ApiError ? error.code : 'UNKNOWN';
  const field = error instanceof ApiError ? error.field : undefined;
  const generic: MessageKey = `errors.${code}`;
  if (field === undefined || !(field in values)) return { fields: {}, form: generic };
  const name = field as F;
  const message =
    code === 'VALIDATION_FAILED' ? (validateAll<F>(schema, values)[name] ?? generic) : generic;
  return { fields: { [name]: message } as Errors<F>, form: null };
}
