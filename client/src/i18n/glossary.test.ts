import { describe, expect, it } from 'vitest';
import { languages, type Language } from './languages';
import { flattenLocale, localePathsFor, mergeLocales, type LocaleTree } from './resources';

/**
 * One glossary per language (glossary/<lang>.json): each trading and money concept has one term,
 * the words that must not be used (betting words, the wallet's deposit/withdraw words inside
 * savings, a payout labelled as profit, a second name for the same thing) and a note. Every
 * locale text and every seeded page (rules, savings rules, about, privacy, news, banners) must
 * follow it.
 */
interface Avoid {
  text: string;
  why:
    | 'betting'
    | 'wallet-word-in-savings'
    | 'payout-as-profit'
    | 'variant'
    | 'register'
    | 'brand'
    | 'plain-english';
}
interface Concept {
  term: string;
  forms?: string[];
  avoid: Avoid[];
  note: string;
}
interface Glossary {
  language: Language;
  concepts: Record<string, Concept>;
}
interface Seed {
  pages: Record<string, { title: string; body: string }>;
  news: { title: string; body: string }[];
  banners: { title: string; subtitle: string }[];
  highlights: { title: string; body: string }[];
}

const glossaries = import.meta.glob<Glossary>('./glossary/*.json', {
  eager: true,
  import: 'default',
});
const localeFiles = import.meta.glob<LocaleTree>('./locales/**/*.json', {
  eager: true,
  import: 'default',
});
const seeds = import.meta.glob<Seed>('../../../server/src/modules/content/seed/*.json', {
  eager: true,
  import: 'default',
});

const glossary = (lang: Language): Glossary => {
  const g = glossaries[`./glossary/${lang}.json`];
  if (!g) throw new Error(`missing glossary/${lang}.json`);
  return g;
};
const seed = (lang: Language): Seed => {
  const s = seeds[`../../../server/src/modules/content/seed/${lang}.json`];
  if (!s) throw new Error(`missing seed/${lang}.json`);
  return s;
};
const texts = (lang: Language) =>
  flattenLocale(
    mergeLocales(localePathsFor(lang, Object.keys(localeFiles)).map((p) => localeFiles[p]!)),
  );

/** Concepts whose avoided words are wrong only inside savings (they are right in the wallet). */
const savingsScoped = new Set(['savings.transferIn', 'savings.transferOut']);
const isSavingsKey = (key: string) =>
  /^(savings\.|wallet\.kind\.savings_|pages\.(money|particulars|savingsRules)$|tabs\.money$)/.test(
    key,
  );

/** Every seeded text of a language with where it comes from, and whether it is about savings. */
function seedTexts(lang: Language): { where: string; text: string; savings: boolean }[] {
  const s = seed(lang);
  const out: { where: string; text: string; savings: boolean }[] = [];
  for (const [slug, page] of Object.entries(s.pages))
    for (const [field, text] of Object.entries(page))
      out.push({ where: `pages.${slug}.${field}`, text, savings: slug === 'savings-rules' });
  s.news.forEach((n, i) => {
    const savings = /savings|余额|餘額|理财|理財/i.test(seed('en').news[i]?.title ?? '');
    out.push({ where: `news.${i}.title`, text: n.title, savings });
    out.push({ where: `news.${i}.body`, text: n.body, savings });
  });
  s.banners.forEach((b, i) => {
    const savings = /savings/i.test(seed('en').banners[i]?.title ?? '');
    out.push({ where: `banners.${i}.title`, text: b.title, savings });
    out.push({ where: `banners.${i}.subtitle`, text: b.subtitle, savings });
  });
  s.highlights.forEach((h, i) => {
    out.push({ where: `highlights.${i}.title`, text: h.title, savings: false });
    out.push({ where: `highlights.${i}.body`, text: h.body, savings: false });
  });
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * Whether `text` uses `word`: case-insensitive; a word in a Latin script must begin a word
 * ("Setor" is found in "Setoran" but "Harap" is not found in "diharapkan").
 */
export function uses(text: string, word: string): boolean {
  const latin = /^\p{Script=Latin}/u.test(word);
  return new RegExp(`${latin ? '(?<!\\p{L})' : ''}${escape(word)}`, 'iu').test(text);
}

/** Every avoided word found in a language's texts: "<where>: <word> (<why>)". */
export function findings(
  g: Glossary,
  all: { where: string; text: string; savings: boolean }[],
): string[] {
  const found: string[] = [];
  for (const [name, concept] of Object.entries(g.concepts))
    for (const avoid of concept.avoid)
      for (const { where, text, savings } of all) {
        if (savingsScoped.has(name) && !savings) continue;
        if (uses(text, avoid.text)) found.push(`${where}: ${avoid.text} (${avoid.why}, ${name})`);
      }
  return found;
}

/** Where the app names a concept: each of these texts must use the glossary's term. */
const named: Record<string, string[]> = {
  'direction.up': ['orders.ticket.buyUp'],
  'direction.down': ['orders.ticket.buyDown'],
  payout: [
    'orders.ticket.payout',
    'orders.list.payout',
    'orders.list.payNow',
    'wallet.kind.order_payout',
  ],
  draw: ['orders.status.draw'],
  void: ['orders.status.void'],
  deposit: ['wallet.kind.deposit', 'pages.recharge', 'wallet.summary.deposit'],
  savings: ['pages.money', 'pages.savingsRules', 'wallet.kind.savings_income'],
  'savings.transferIn': [
    'savings.transferIn',
    'savings.submitIn',
    'savings.doneIn',
    'savings.inRemaining',
    'savings.record.in',
    'wallet.kind.savings_in',
  ],
  'savings.transferOut': [
    'savings.transferOut',
    'savings.submitOut',
    'savings.doneOut',
    'savings.outRemaining',
    'savings.record.out',
    'wallet.kind.savings_out',
  ],
  'savings.confirmed': ['savings.confirmed'],
  'savings.pending': ['savings.pending'],
  identity: ['kyc.name', 'pages.verify'],
  bankAccount: [
    'wallet.channel.bank',
    'pages.rechargeBank',
    'wallet.deposit.payer',
    'wallet.account.bankCard',
    'wallet.account.bindBank',
  ],
  practice: [
    'orders.practice.practice',
    'orders.practice.bandLabel',
    'orders.practice.balance',
    'orders.practice.reset',
    'errors.PRACTICE_NOT_ALLOWED',
  ],
};
/** The rules pages name the same things as the buttons and the savings page. */
const namedInPages: Record<string, string[]> = {
  rules: ['direction.up', 'direction.down'],
  'savings-rules': [
    'savings.transferIn',
    'savings.transferOut',
    'savings.confirmed',
    'savings.pending',
  ],
};

const forms = (c: Concept) => [c.term, ...(c.forms ?? [])];

/** "85%" or "85 %": as Intl writes a percentage in this language. */
const percentSpaced = (lang: Language) =>
  /\d\s%/u.test(new Intl.NumberFormat(lang, { style: 'percent' }).format(0.85));

describe('glossaries', () => {
  it.each(languages)('%s has a glossary of the trading and money concepts', (lang) => {
    const g = glossary(lang);
    expect(g.language).toBe(lang);
    for (const name of [
      'direction.up',
      'direction.down',
      'stake',
      'payout',
      'profit',
      'draw',
      'void',
      'order',
      'position',
      'deposit',
      'withdrawal',
      'savings',
      'savings.transferIn',
      'savings.transferOut',
      'savings.confirmed',
      'savings.pending',
      'income',
      'rate',
      'duration',
      'bankAccount',
      'identity',
      'practice',
    ]) {
      const c = g.concepts[name];
      expect(c?.term.trim(), `${lang} ${name}`).toBeTruthy();
      expect(c?.note.trim(), `${lang} ${name}`).toBeTruthy();
      // A term that is also avoided would make the glossary contradict itself.
      for (const a of c?.avoid ?? []) expect(uses(c!.term, a.text), `${lang} ${name}`).toBe(false);
    }
  });
});

describe.each(languages)('%s follows its glossary', (lang) => {
  const g = glossary(lang);
  const locale = texts(lang);
  const localeTexts = [...locale].map(([key, text]) => ({
    where: key,
    text,
    savings: isSavingsKey(key),
  }));

  it('no locale text uses a banned or avoided term', () => {
    expect(findings(g, localeTexts)).toEqual([]);
  });

  it('no seeded page uses a banned or avoided term', () => {
    expect(findings(g, seedTexts(lang))).toEqual([]);
  });

  it('the app names each concept with the glossary term', () => {
    const wrong: string[] = [];
    for (const [name, keys] of Object.entries(named)) {
      const concept = g.concepts[name]!;
      for (const key of keys) {
        const text = locale.get(key) ?? '';
        if (!forms(concept).some((f) => uses(text, f)))
          wrong.push(`${key} "${text}" ≠ ${name} "${concept.term}"`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the rules pages use the same terms as the app', () => {
    const wrong: string[] = [];
    for (const [slug, names] of Object.entries(namedInPages)) {
      const body = seed(lang).pages[slug]!.body;
      for (const name of names) {
        const concept = g.concepts[name]!;
        if (!forms(concept).some((f) => uses(body, f)))
          wrong.push(`${slug}: ${name} "${concept.term}"`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('writes percentages the way Intl does ("85%" or "85 %")', () => {
    const spaced = percentSpaced(lang);
    const wrong = [...localeTexts, ...seedTexts(lang)]
      .flatMap(({ where, text }) => [...text.matchAll(/\d+(\s*)%/gu)].map((m) => ({ where, m })))
      .filter(({ m }) => (m[1] !== '') !== spaced)
      .map(({ where, m }) => `${where}: "${m[0]}"`);
    expect(wrong).toEqual([]);
  });

  it('puts no decimal number in a locale text (numbers come from Intl)', () => {
    const literal = localeTexts.filter(({ text }) => /\d[.,]\d/.test(text)).map((t) => t.where);
    expect(literal).toEqual([]);
  });
});

describe('the checker', () => {
  const g: Glossary = {
    language: 'id',
    concepts: {
      stake: { term: 'dana order', avoid: [{ text: 'Taruhan', why: 'betting' }], note: '' },
      'savings.transferIn': { term: 'x', avoid: [{ text: 'Harap', why: 'register' }], note: '' },
    },
  };
  it('finds a banned word anywhere, case-insensitive, at the start of a word', () => {
    expect(findings(g, [{ where: 'a', text: 'Kembalikan taruhan', savings: false }])).toHaveLength(
      1,
    );
    expect(findings(g, [{ where: 'a', text: 'Dana order', savings: false }])).toEqual([]);
  });
  it('finds savings-only words only in savings texts', () => {
    expect(findings(g, [{ where: 'a', text: 'Harap tunggu', savings: false }])).toEqual([]);
    expect(findings(g, [{ where: 'a', text: 'Harap tunggu', savings: true }])).toHaveLength(1);
    expect(uses('diharapkan', 'Harap')).toBe(false);
  });
});
