import { z } from 'zod';

/**
 * Operator names (issue 33): the audit log and the access log name who acted by name, so a name
 * must not pass for another one, nor for what the logs print for no operator at all.
 *
 * - A name is a lower-case ASCII slug: a letter, then letters, digits, `_` or `-`, 3 to 32 in all.
 *   Upper-case ASCII letters are accepted and stored lower-case (case never told operators
 *   apart); anything else (Cyrillic `ѕ`, full-width letters, dots, spaces) is refused, so no
 *   script can borrow the look of another.
 * - The names the logs print for callers that are no operator (`service` for the service token,
 *   `unknown` for a sign-in under a name nobody has) and the names of roles and of the system are
 *   reserved, compared by their skeleton (below): `serv1ce` is as reserved as `service`.
 * - A new name whose skeleton is an existing operator's is refused (operators.service.ts).
 */
export const operatorNameRule =
  'name: 3 to 32 characters, a letter first, then letters a-z, digits, _ or -';

/** What the logs print for callers that are not an operator, and names that read as a role. */
export const reservedOperatorNames = [
  'service',
  'unknown',
  'system',
  'admin',
  'root',
  'operator',
  'support',
  'reviewer',
] as const;

/**
 * Characters of the slug alphabet that read as another in common fonts, each mapped to one
 * representative of its group (after the slug rule nothing but ASCII remains to confuse).
 */
const lookAlike: Record<string, string> = {
  '0': 'o',
  '1': 'l',
  i: 'l',
  '2': 'z',
  '5': 's',
  '6': 'b',
  '8': 'b',
  '9': 'g',
  _: '-',
  // Not in the slug alphabet, but in names from before it (`old.timer` reads as `old_timer`).
  '.': '-',
};
/** Pairs of letters that read as one letter, applied after the single characters. */
const lookAlikePairs: readonly [string, string][] = [
  ['rn', 'm'],
  ['vv', 'w'],
  ['cl', 'd'],
];

/**
 * The name as it looks: two names with the same skeleton are too alike to tell apart in a log
 * (`rn` and `m`, `0` and `o`, `1`, `l` and `i`, `_` and `-`). Names from before the slug rule
 * keep their other characters, which no new name can hold.
 */
export function operatorNameSkeleton(name: string): string {
  let s = name.toLowerCase().replace(/[0125689i_.]/g, (c) => lookAlike[c] ?? c);
  for (const [pair, one] of lookAlikePairs) s = s.replaceAll(pair, one);
  return s;
}

const reservedSkeletons = new Set(reservedOperatorNames.map(operatorNameSkeleton));

/** Whether a name is, or looks like, a reserved one. */
export const isReservedOperatorName = (name: string) =>
  reservedSkeletons.has(operatorNameSkeleton(name));

/** The name of a new operator: the slug rule, stored lower-case, never a reserved name. */
export const newOperatorName = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{2,31}$/, operatorNameRule)
  .transform((s) => s.toLowerCase())
  .refine((s) => !isReservedOperatorName(s), 'name: reserved (it reads as a role or the system)');

/** The roles a named operator may hold (the service token is the `service` caller besides). */
export const operatorRoles = ['reviewer', 'support', 'admin'] as const;
export type OperatorRole = (typeof operatorRoles)[number];
