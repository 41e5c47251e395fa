import { describe, expect, it } from 'vitest';
import { ApiError } from '@client/api/client';
import { digitsOnly, rules, serverErrors, validateAll, type Rules } from './validation';

type Register = 'password' | 'passwordConfirm' | 'tradePassword' | 'tradePasswordConfirm';
const registerRules: Rules<Register> = {
  password: rules.password,
  passwordConfirm: rules.sameAs('password', 'errors.PASSWORD_MISMATCH'),
  tradePassword: rules.tradePassword,
  tradePasswordConfirm: rules.sameAs('tradePassword', 'errors.TRADE_PASSWORD_MISMATCH'),
};

describe('field rules (shared schemas)', () => {
  it('checks the account: 4-20 letters, digits or underscore', () => {
    expect(rules.account('')).toBe('common.required');
    expect(rules.account('   ')).toBe('common.required');
    expect(rules.account('abc')).toBe('account.rules.account');
    expect(rules.account('ab-cd')).toBe('account.rules.account');
    expect(rules.account('a'.repeat(21))).toBe('account.rules.account');
    expect(rules.account('alice_01')).toBeNull();
  });

  it('checks the phone: optional +, 6-15 digits', () => {
    expect(rules.phone('12345')).toBe('account.rules.phone');
    expect(rules.phone('+86 138')).toBe('account.rules.phone');
    expect(rules.phone('+8613800138000')).toBeNull();
    expect(rules.phone('123456')).toBeNull();
  });

  it('needs an invitation code', () => {
    expect(rules.inviteCode('')).toBe('common.required');
    expect(rules.inviteCode('X'.repeat(33))).toBe('errors.INVITE_INVALID');
    expect(rules.inviteCode('welcome')).toBeNull();
  });

  it('checks the passwords: 8-64 characters; the transaction password is 6 digits', () => {
    expect(rules.password('short')).toBe('account.rules.password');
    expect(rules.password('long enough')).toBeNull();
    expect(rules.tradePassword('12345')).toBe('account.rules.tradePassword');
    expect(rules.tradePassword('12345a')).toBe('account.rules.tradePassword');
    expect(rules.tradePassword('123456')).toBeNull();
  });
});

describe('validateAll', () => {
  it('says "passwords do not match" and "transaction passwords do not match"', () => {
    const errors = validateAll(
      {
        password: 'secret-pass',
        passwordConfirm: 'secret-pasS',
        tradePassword: '123456',
        tradePasswordConfirm: '123465',
      },
      registerRules,
    );
    expect(errors).toEqual({
      passwordConfirm: 'errors.PASSWORD_MISMATCH',
      tradePasswordConfirm: 'errors.TRADE_PASSWORD_MISMATCH',
    });
  });

  it('asks for every required entry, and is empty for a good form', () => {
    const empty = {
      password: '',
      passwordConfirm: '',
      tradePassword: '',
      tradePasswordConfirm: '',
    };
    expect(Object.values(validateAll(empty, registerRules))).toEqual(
      Array(4).fill('common.required'),
    );
    const good = {
      password: 'secret-pass',
      passwordConfirm: 'secret-pass',
      tradePassword: '123456',
      tradePasswordConfirm: '123456',
    };
    expect(validateAll(good, registerRules)).toEqual({});
  });
});

describe('digitsOnly', () => {
  it('keeps at most six digits', () => {
    expect(digitsOnly('12a3 45678')).toBe('123456');
    expect(digitsOnly('')).toBe('');
  });
});

describe('serverErrors', () => {
  const values = { account: 'alice', phone: '123', inviteCode: 'WELCOME' };
  const ruleset = { account: rules.account, phone: rules.phone, inviteCode: rules.inviteCode };

  it('marks the input a refusal names', () => {
    const taken = new ApiError('ACCOUNT_TAKEN', 'taken', 409, 'account');
    expect(serverErrors(taken, values, ruleset)).toEqual({
      fields: { account: 'errors.ACCOUNT_TAKEN' },
      form: null,
    });
  });

  it('words a VALIDATION_FAILED on an input with that input rule', () => {
    const invalid = new ApiError('VALIDATION_FAILED', 'phone: bad', 400, 'phone');
    expect(serverErrors(invalid, values, ruleset).fields).toEqual({
      phone: 'account.rules.phone',
    });
    const passes = new ApiError('VALIDATION_FAILED', 'account: bad', 400, 'account');
    expect(serverErrors(passes, values, ruleset).fields).toEqual({
      account: 'errors.VALIDATION_FAILED',
    });
  });

  it('shows refusals without an input of this form above the form', () => {
    const bad = new ApiError('BAD_CREDENTIALS', 'wrong', 401);
    expect(serverErrors(bad, values, ruleset)).toEqual({
      fields: {},
      form: 'errors.BAD_CREDENTIALS',
    });
    const elsewhere = new ApiError('INVITE_INVALID', 'bad', 400, 'inviteCode');
    expect(serverErrors(elsewhere, { password: '' }, {}).form).toBe('errors.INVITE_INVALID');
    expect(serverErrors(new Error('boom'), values, ruleset).form).toBe('errors.UNKNOWN');
  });
});
