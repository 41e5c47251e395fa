import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  comparableName,
  freeText,
  hasForbiddenCharacters,
  hasInvisibleCharacters,
  personName,
} from './text';

/** Every character the rule refuses, as single UTF-16 units. */
const c0 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i));
const c1 = Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i));
const bidi = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
];
const surrogates = ['\ud800', '\udbff', '\udc00', '\udfff'];
const lineBreaks = ['\t', '\n', '\r'];

describe('freeText', () => {
  it('takes what people write, in every script the app speaks, emoji and marks included', () => {
    const s = freeText().trim().min(1).max(200);
    for (const text of [
      'Zhang San',
      '张三',
      '陳大文',
      '山田 太郎',
      '김철수',
      'สมชาย ใจดี',
      'Nguyễn Văn A',
      'François Müller-Lüdenscheidt',
      'Ōsaka 〒530-0001',
      'שלום\u200f עולם', // a right-to-left mark is ordinary punctuation in Hebrew and Arabic text
      'مرحبا\u061c',
      '👨‍👩‍👧 family',
      'e\u0301',
      '\u00a0non-breaking',
    ])
      expect(s.safeParse(text).success, text).toBe(true);
  });

  it('refuses every C0 and C1 control, bidi override and isolate, and lone surrogate', () => {
    for (const ch of [...c0, ...c1, ...bidi, ...surrogates]) {
      const code = ch.charCodeAt(0).toString(16);
      expect(hasForbiddenCharacters(`a${ch}b`), code).toBe(true);
      expect(freeText().safeParse(`name${ch}`).success, code).toBe(false);
    }
    // A surrogate pair is one ordinary character.
    expect(hasForbiddenCharacters('\ud83d\ude00')).toBe(false);
  });

  it('keeps tab, line feed and carriage return only in multi-line text', () => {
    for (const ch of lineBreaks) {
      expect(freeText().safeParse(`a${ch}b`).success).toBe(false);
      expect(freeText({ multiline: true }).safeParse(`a${ch}b`).success).toBe(true);
    }
    for (const ch of [...c0.filter((c) => !lineBreaks.includes(c)), ...c1, ...bidi])
      expect(freeText({ multiline: true }).safeParse(`a${ch}b`).success).toBe(false);
  });

  it('checks the text as sent, before trimming: a trailing control character is no whitespace', () => {
    expect(freeText().trim().safeParse('name\u0000').success).toBe(false);
    expect(freeText().trim().safeParse('name\n').success).toBe(false);
    expect(freeText().trim().parse('  name  ')).toBe('name');
  });

  it('names the field in an object and says why', () => {
    const r = z.object({ holderName: freeText() }).safeParse({ holderName: 'A\u202eB' });
    expect(r.error?.issues[0]).toMatchObject({
      path: ['holderName'],
      message: 'must not contain control characters or bidirectional overrides',
    });
  });

  it('refuses a text exactly when one refused character is in it (property)', () => {
    const refused = fc.constantFrom(...c0, ...c1, ...bidi, ...surrogates);
    const clean = fc.string({ unit: 'grapheme' }).filter((s) => !hasForbiddenCharacters(s));
    fc.assert(
      fc.property(clean, clean, refused, (before, after, ch) => {
        expect(freeText().safeParse(before + after).success).toBe(true);
        expect(freeText().safeParse(before + ch + after).success).toBe(false);
      }),
      { seed: 20_260_517 },
    );
  });
});

/** Characters that print as nothing, which a name may not hold (issue 33). */
const invisible = [
  '\u200f', // RLM
  '\u061c', // ALM
  '\u200e', // LRM
  '\u200b', // zero-width space
  '\u200c', // zero-width non-joiner
  '\u200d', // zero-width joiner
  '\u2060', // word joiner
  '\u2064', // invisible plus
  '\ufeff', // BOM
  '\u00ad', // soft hyphen
  '\u034f', // combining grapheme joiner
  '\u180e', // Mongolian vowel separator
  '\ufe0f', // variation selector 16
  '\u3164', // Hangul filler
  '\u0600', // Arabic number sign (Cf)
  '\u{e0041}', // tag letter A
  '\u{1d173}', // musical symbol begin beam
];

describe('personName', () => {
  const name = personName().trim().min(1).max(50);

  it('takes names in every script the app speaks', () => {
    for (const text of [
      'Zhang San',
      '张三',
      '陳大文',
      '山田 太郎',
      '김철수',
      'สมชาย ใจดี',
      'Nguyễn Văn A',
      'François Müller-Lüdenscheidt',
      "O'Brien",
      'e\u0301mile', // a combining accent is a visible mark
      'محمد علي',
      'שלום כהן',
    ])
      expect(name.safeParse(text).success, text).toBe(true);
  });

  it('refuses every invisible character, anywhere in the name, with its reason', () => {
    for (const ch of invisible) {
      const code = ch.codePointAt(0)!.toString(16);
      expect(hasInvisibleCharacters(ch), code).toBe(true);
      for (const text of [`${ch}Zhang San`, `Zhang${ch} San`, `Zhang San${ch}`]) {
        const r = z.object({ holderName: name }).safeParse({ holderName: text });
        expect(r.success, code).toBe(false);
        expect(r.error?.issues[0]).toMatchObject({
          path: ['holderName'],
          message: 'must not contain invisible characters (zero-width, direction marks)',
        });
      }
      // Elsewhere free text keeps them (Persian, Indic scripts, emoji, Hebrew and Arabic marks).
      expect(freeText().safeParse(`Zhang${ch} San`).success, code).toBe(true);
    }
  });

  it('still refuses what freeText refuses', () => {
    for (const ch of [...c0, ...c1, ...bidi, ...surrogates])
      expect(name.safeParse(`Zhang${ch}San`).success).toBe(false);
  });
});

describe('comparableName', () => {
  it('holds names alike that differ only in form, spacing or Latin case', () => {
    for (const [a, b] of [
      ['Zhang San', '  zhang   SAN '],
      ['Zhang San', 'Zhang\u00a0San'], // a no-break space is a space
      ['Zhang San', 'Zhang\tSan'],
      ['Émile Zola', 'E\u0301mile zola'], // precomposed or combined: one name under NFC
      ['Müller', 'MÜLLER'],
      ['张三', '张三'],
      ['Nguyễn Văn A', 'nguyễn văn a'],
      ['Zhang San', 'Zhang\u200b San\u200f'], // a name verified before marks were refused
    ] as const)
      expect(comparableName(a), `${a} / ${b}`).toBe(comparableName(b));
  });

  it('tells different names apart', () => {
    for (const [a, b] of [
      ['Zhang San', 'Zhang Sam'],
      ['Zhang San', 'ZhangSan'],
      ['张三', '張三'], // simplified and traditional are different characters
      ['Muller', 'Müller'],
      ['Zhang San', 'San Zhang'],
    ] as const)
      expect(comparableName(a), `${a} / ${b}`).not.toBe(comparableName(b));
  });
});
