import { z } from 'zod';

/**
 * Characters no text a person sends us may hold:
 * - control characters (`\p{Cc}`: C0, DEL and C1). NUL above all: PostgreSQL refuses it in text
 *   (an error, not a refusal), and the rest print as nothing or move the terminal of whoever reads
 *   a log or an export;
 * - the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which make
 *   a name, an address or a remark read differently from what it holds ("Trojan Source");
 * - unpaired UTF-16 surrogates (`\p{Cs}`), which UTF-8 cannot carry: the driver would store U+FFFD
 *   instead, so what was accepted is not what was kept.
 * Multi-line texts keep tab, line feed and carriage return.
 */
const forbidden = /[\p{Cc}\p{Cs}\u202a-\u202e\u2066-\u2069]/u;
const lineBreaksAndTabs = /[\t\n\r]/g;

const message = 'must not contain control characters or bidirectional overrides';

/** Whether `s` holds a character `freeText` refuses. */
export function hasForbiddenCharacters(s: string, { multiline = false } = {}): boolean {
  return forbidden.test(multiline ? s.replace(lineBreaksAndTabs, '') : s);
}

/**
 * The one base of every free-text field of a request (names, remarks, search words, ids typed as
 * text, content bodies): a string without control characters or bidi overrides, checked on the
 * text as sent, before any trim. Chain `.trim()`, `.min()`, `.max()` on it as on `z.string()`.
 * `multiline` allows tab, line feed and carriage return (remarks, content bodies).
 */
export function freeText({
  multiline = false,
  error,
}: { multiline?: boolean; error?: string } = {}) {
  return z
    .string(error ? { error } : undefined)
    .refine((s) => !hasForbiddenCharacters(s, { multiline }), message);
}

/**
 * Characters no name may hold: Unicode's format characters (`\p{Cf}`: the marks U+200E LRM,
 * U+200F RLM, U+061C ALM; zero-width space, non-joiner and joiner U+200B–U+200D; word joiner
 * U+2060 and the invisible operators after it; BOM U+FEFF; soft hyphen; tag characters) and the
 * other default-ignorable code points (`\p{Default_Ignorable_Code_Point}`: variation selectors,
 * the Hangul fillers, the combining grapheme joiner). They print as nothing, so two names that
 * look alike on an operator's screen or a bank's would not be alike: the one an identity check
 * verified and the one a withdrawal goes to, or a real operator's and an impostor's. Free text
 * elsewhere keeps them: Persian and Indic scripts need the joiners, emoji sequences join with
 * ZWJ, and the marks are punctuation in Hebrew and Arabic remarks (DECISIONS.md, Privacy and
 * names).
 */
const invisible = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

const invisibleMessage = 'must not contain invisible characters (zero-width, direction marks)';

/** Whether `s` holds a character `personName` refuses on top of what `freeText` refuses. */
export function hasInvisibleCharacters(s: string): boolean {
  return invisible.test(s);
}

/**
 * The base of every field that holds a person's name (the identity check's name, a bank account's
 * holder, a deposit's payer, an operator's name): `freeText` that also refuses invisible
 * characters. Chain `.trim()`, `.min()`, `.max()` on it as on `z.string()`.
 */
export function personName({ error }: { error?: string } = {}) {
  return freeText({ error }).refine((s) => !hasInvisibleCharacters(s), invisibleMessage);
}

const invisibleEverywhere = new RegExp(invisible.source, 'gu');

/**
 * `s` without the characters `personName` refuses: for a name accepted before they were refused
 * (an identity verified earlier), so that it can be shown, typed and compared again.
 */
export function withoutInvisible(s: string): string {
  return s.replace(invisibleEverywhere, '');
}

/**
 * A name as two names are compared (a bank account's holder against the verified identity's):
 * Unicode NFC (a precomposed é and e + U+0301 are one name), trimmed, inner whitespace of any kind
 * collapsed to one space, invisible characters dropped, and lower-cased, which changes Latin, Greek and Cyrillic letters and
 * leaves scripts without case (Chinese, Thai, Arabic) as they are.
 */
export function comparableName(s: string): string {
  return withoutInvisible(s.normalize('NFC'))
    .trim()
    .replace(/\s+/gu, ' ')
    .toLowerCase()
    .normalize('NFC');
}
