import { describe, expect, it } from 'vitest';
import { accountNumberProblem, bankAccountForm, isValidIban, needsBranch } from './bank-account';

describe('bank account forms', () => {
  it('asks for an IBAN in IBAN countries, a card in China, an account number elsewhere', () => {
    expect(bankAccountForm('DE')).toBe('iban');
    expect(bankAccountForm('fr')).toBe('iban');
    expect(bankAccountForm('GB')).toBe('iban');
    expect(bankAccountForm('CN')).toBe('card');
    for (const c of ['JP', 'KR', 'TH', 'ID', 'VN', 'US', 'TW'])
      expect(bankAccountForm(c)).toBe('account');
  });

  it('checks IBAN length and mod-97 check digits', () => {
    expect(isValidIban('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(isValidIban('FR14 2004 1010 0505 0001 3M02 606')).toBe(true);
    expect(isValidIban('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(isValidIban('de89370400440532013000')).toBe(true);
    expect(isValidIban('DE88 3704 0044 0532 0130 00')).toBe(false); // check digit
    expect(isValidIban('DE89 3704 0044 0532 0130 01')).toBe(false); // one digit changed
    expect(isValidIban('DE89 3704 0044 0532 0130')).toBe(false); // too short for DE
    expect(isValidIban('XX89 3704 0044 0532 0130 00')).toBe(false); // no such country
  });

  it('names the problem per form', () => {
    expect(accountNumberProblem('DE', 'DE89370400440532013000')).toBeNull();
    expect(accountNumberProblem('DE', '6222021234567890')).toMatch(/IBAN/);
    expect(accountNumberProblem('FR', 'DE88370400440532013000')).toMatch(/check digits/);
    expect(accountNumberProblem('CN', '6222 0212 3456 7890')).toBeNull();
    expect(accountNumberProblem('CN', '1234')).toMatch(/8-30/);
    expect(accountNumberProblem('KR', '110-123-456789')).toBeNull();
    expect(accountNumberProblem('KR', 'ABC')).toMatch(/6-30/);
  });

  it('keeps to a Japanese account: 7 digits, and a branch', () => {
    expect(accountNumberProblem('JP', '1234567')).toBeNull();
    expect(accountNumberProblem('jp', '123456')).toMatch(/7 digits/);
    expect(accountNumberProblem('JP', '12345678')).toMatch(/7 digits/);
    expect(needsBranch('JP')).toBe(true);
    expect(needsBranch(' jp')).toBe(true);
    for (const c of ['CN', 'KR', 'TH', 'VN', 'ID', 'DE', 'FR', 'US'])
      expect(needsBranch(c)).toBe(false);
  });
});

describe('the schemas that use them', () => {
  it("take an IBAN or a card as a depositor's account", async () => {
    const { payerAccount } = await import('./requests');
    expect(payerAccount.parse('DE89 3704 0044 0532 0130 00')).toBe('DE89370400440532013000');
    expect(payerAccount.parse('6222-0200-1234-5678')).toBe('6222020012345678');
    expect(payerAccount.safeParse('DE88370400440532013000').success).toBe(false);
  });
});
