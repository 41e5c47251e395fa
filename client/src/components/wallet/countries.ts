import { countryCodes } from '@shared/countries';

export interface Country {
  code: string;
  name: string;
  /** Lower-case, accent-free text the search matches: the name here, in English, and the code. */
  search: string;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const lists = new Map<string, Country[]>();

/** Every country code with its name in `lang` (Intl.DisplayNames), sorted the language's way. */
export function countryList(lang: string): Country[] {
  let list = lists.get(lang);
  if (list) return list;
  const local = new Intl.DisplayNames([lang], { type: 'region', fallback: 'code' });
  const english = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator(lang);
  list = [...countryCodes]
    .map((code) => {
      const name = local.of(code) ?? code;
      return { code, name, search: fold(`${name} ${english.of(code) ?? ''} ${code}`) };
    })
    .sort((a, b) => collator.compare(a.name, b.name));
  lists.set(lang, list);
  return list;
}

/** The countries whose name (here or in English) or code contains `query`. */
export function searchCountries(list: readonly Country[], query: string): Country[] {
  const q = fold(query.trim());
  if (!q) return [...list];
  // An exact code first ("CN"), then the rest in name order.
  const exact = list.filter((c) => c.code.toLowerCase() === q);
  return [...exact, ...list.filter((c) => c.search.includes(q) && !exact.includes(c))];
}

/** The name of one code in `lang`, or the code when unknown. */
export function countryName(code: string, lang: string): string {
  return countryList(lang).find((c) => c.code === code)?.name ?? code;
}
