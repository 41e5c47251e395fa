/**
 * What a bank account number looks like in the holder's country (issue 24): an IBAN with its
 * mod-97 check digits where IBANs are how transfers are addressed (Europe, much of the Middle
 * East and North Africa), a card or account number for China, an account number elsewhere
 * (Japan, Korea, Thailand, Indonesia, Vietnam, the US…). One API field carries it
 * (`cardNumber`), validated by `nationality`; where a transfer is addressed to a branch as well
 * (Japan), the branch is a second field (`branch`), required there (DECISIONS.md).
 */
export type BankAccountForm = 'iban' | 'card' | 'account';

/** IBAN length per country (the SWIFT IBAN registry), for the countries whose transfers use one. */
export const ibanLengths: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

/** Which form a holder of this nationality (ISO 3166 alpha-2) gives. */
export function bankAccountForm(nationality: string): BankAccountForm {
  const code = nationality.trim().toUpperCase();
  if (code === 'CN') return 'card';
  return Object.hasOwn(ibanLengths, code) ? 'iban' : 'account';
}

/**
 * Countries whose domestic transfers name the receiving branch beside the bank: in Japan a
 * transfer (振込) goes to bank, branch (支店名 or its 3-digit 支店番号) and a 7-digit account number.
 */
const branchCountries = new Set(['JP']);

/** Whether a holder of this nationality gives the branch (required there, not asked elsewhere). */
export function needsBranch(nationality: string): boolean {
  return branchCountries.has(nationality.trim().toUpperCase());
}

/** As people type it: spaces and dashes dropped, letters in capitals. */
export function normalizeAccountNumber(raw: string): string {
  return raw.replace(/[\s-]/g, '').toUpperCase();
}

/** ISO 13616: the right length for its country, and mod-97 of the rearranged number is 1. */
export function isValidIban(raw: string): boolean {
  const iban = normalizeAccountNumber(raw);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  if (ibanLengths[iban.slice(0, 2)] !== iban.length) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const n = ch >= 'A' ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    rest = (rest * (n > 9 ? 100 : 10) + n) % 97;
  }
  return rest === 1;
}

/**
 * Why a number does not fit the form of the holder's country, in the API's words, or null when
 * it does. A country with its own length keeps to it: a Japanese account number is 7 digits.
 */
export function accountNumberProblem(country: string, raw: string): string | null {
  const value = normalizeAccountNumber(raw);
  if (country.trim().toUpperCase() === 'JP')
    return /^\d{7}$/.test(value) ? null : 'a Japanese account number is 7 digits';
  switch (bankAccountForm(country)) {
    case 'iban':
      if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(value))
        return 'must be an IBAN (2 letters, 2 check digits, then the account)';
      return isValidIban(value) ? null : 'IBAN check digits do not match (or wrong length)';
    case 'card':
      return /^\d{8,30}$/.test(value) ? null : 'card or account number must be 8-30 digits';
    case 'account':
      return /^\d{6,30}$/.test(value) ? null : 'account number must be 6-30 digits';
  }
}
