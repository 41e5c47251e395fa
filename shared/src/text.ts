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
