import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '@client/api/client';
import {
  accountSchema,
  inviteCodeSchema,
  passwordSchema,
  phoneSchema,
  tradePasswordSchema,
} from '@shared/accounts/model';
import {
  checked,
  digitsOnly,
  maxLengthOf,
  picked,
  required,
  sameAs,
  serverErrors,
  validateAll,
  wordIssue,
} from './validation';

/** The first message `schema` gives `value`, or null when it passes. */
const first = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues[0]?.message ?? null;

const rules = {
  account: checked(accountSchema, 'account.rules.account'),
  phone: checked(phoneSchema, 'account.rules.phone'),
  inviteCode: checked(inviteCodeSchema, 'errors.INVITE_INVALID'),
  password: checked(passwordSchema, 'account.rules.password'),
  tradePassword: checked(tradePasswordSchema, 'account.rules.tradePassword'),
};

const register = z
  .object({
    password: rules.password,
    passwordConfirm: required(),
    tradePassword: rules.tradePassword,
    tradePasswordConfirm: required(),
  })
  .superRefine(sameAs('password', 'passwordConfirm', 'errors.PASSWORD_MISMATCH'))
  .superRefine(sameAs('tradePassword', 'tradePasswordConfirm', 'errors.TRADE_PASSWORD_MISMATCH'));

describe('field rules (shared schemas)', () => {
  it('checks the account: 4-20 letters, digits or underscore', () => {
    expect(first(rules.account, '')).toBe('common.required');
    expect(first(rules.account, '   ')).toBe('common.required');
    expect(first(rules.account, 'abc')).toBe('account.rules.account');
    expect(first(rules.account, 'ab-cd')).toBe('account.rules.account');
    expect(first(rules.account, 'a'.repeat(21))).toBe('account.rules.account');
    expect(first(rules.account, 'alice_01')).toBeNull();
  });

  it('checks the phone: optional +, 6-15 digits', () => {
    expect(first(rules.phone, '12345')).toBe('account.rules.phone');
    expect(first(rules.phone, '+86 138')).toBe('account.rules.phone');
    expect(first(rules.phone, '+8613800138000')).toBeNull();
    expect(first(rules.phone, '123456')).toBeNull();
  });

  it('needs an invitation code', () => {
    expect(first(rules.inviteCode, '')).toBe('common.required');
    expect(first(rules.inviteCode, 'X'.repeat(33))).toBe('errors.INVITE_INVALID');
    expect(first(rules.inviteCode, 'welcome')).toBeNull();
  });

  it('checks the passwords: 8-64 characters; the transaction password is 6 digits', () => {
    expect(first(rules.password, 'short')).toBe('account.rules.password');
    expect(first(rules.password, 'long enough')).toBeNull();
    expect(first(rules.tradePassword, '12345')).toBe('account.rules.tradePassword');
    expect(first(rules.tradePassword, '12345a')).toBe('account.rules.tradePassword');
    expect(first(rules.tradePassword, '123456')).toBeNull();
  });

  it('words issues by their zod code, else the fallback', () => {
    const wording = { too_big: 'errors.TOO_LONG', other: 'errors.VALIDATION_FAILED' } as const;
    expect(wordIssue({ code: 'too_big' }, wording)).toBe('errors.TOO_LONG');
    expect(wordIssue({ code: 'custom' }, wording)).toBe('errors.VALIDATION_FAILED');
    const text = checked(z.string().trim().max(3), wording, null);
    expect(first(text, '')).toBeNull();
    expect(first(text, 'abcd')).toBe('errors.TOO_LONG');
  });

  it('reads input lengths from the shared schemas, through trims, pipes and optionals', () => {
    expect(maxLengthOf(accountSchema)).toBe(20);
    expect(maxLengthOf(phoneSchema)).toBe(16);
    expect(maxLengthOf(inviteCodeSchema)).toBe(32);
    expect(maxLengthOf(passwordSchema)).toBe(64);
    expect(maxLengthOf(z.string().max(9).optional())).toBe(9);
  });

  it('takes a picked file, not a placeholder for one', () => {
    const photo = picked('errors.PHOTO');
    expect(first(photo, null)).toBe('errors.PHOTO');
    expect(first(photo, 'chosen')).toBe('errors.PHOTO');
    expect(first(photo, { blob: new Blob(['x']), url: 'blob:x' })).toBeNull();
    // A photo still to pick does not hide a cross-field rule's message (the ID number's).
    const form = z
      .object({ photo, id: z.string() })
      .superRefine((v, ctx) =>
        ctx.addIssue({ code: 'custom', path: ['id'], message: 'errors.ID' }),
      );
    expect(validateAll(form, { photo: null, id: 'x' })).toEqual({
      photo: 'errors.PHOTO',
      id: 'errors.ID',
    });
  });
});

describe('validateAll', () => {
  it('says "passwords do not match" and "transaction passwords do not match"', () => {
    const errors = validateAll(register, {
      password: 'secret-pass',
      passwordConfirm: 'secret-pasS',
      tradePassword: '123456',
      tradePasswordConfirm: '123465',
    });
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
    expect(Object.values(validateAll(register, empty))).toEqual(Array(4).fill('common.required'));
    const good = {
      password: 'secret-pass',
      passwordConfirm: 'secret-pass',
      tradePassword: '123456',
      tradePasswordConfirm: '123456',
    };
    expect(validateAll(register, good)).toEqual({});
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
  const schema = z.object({
    account: rules.account,
    phone: rules.phone,
    inviteCode: rules.inviteCode,
  });

  it('marks the input a refusal names', () => {
    const taken = new ApiError('ACCOUNT_TAKEN', 'taken', 409, 'account');
    expect(serverErrors(taken, values, schema)).toEqual({
      fields: { account: 'errors.ACCOUNT_TAKEN' },
      form: null,
    });
  });

  it('words a VALIDATION_FAILED on an input with that input rule', () => {
    const invalid = new ApiError('VALIDATION_FAILED', 'phone: bad', 400, 'phone');
    expect(serverErrors(invalid, values, schema).fields).toEqual({
      phone: 'account.rules.phone',
    });
    const passes = new ApiError('VALIDATION_FAILED', 'account: bad', 400, 'account');
    expect(serverErrors(passes, values, schema).fields).toEqual({
      account: 'errors.VALIDATION_FAILED',
    });
  });

  it('shows refusals without an input of this form above the form', () => {
    const bad = new ApiError('BAD_CREDENTIALS', 'wrong', 401);
    expect(serverErrors(bad, values, schema)).toEqual({
      fields: {},
      form: 'errors.BAD_CREDENTIALS',
    });
    const elsewhere = new ApiError('INVITE_INVALID', 'bad', 400, 'inviteCode');
    expect(serverErrors(elsewhere, { password: '' }, z.object({})).form).toBe(
      'errors.INVITE_INVALID',
    );
    expect(serverErrors(new Error('boom'), values, schema).form).toBe('errors.UNKNOWN');
  });
});
