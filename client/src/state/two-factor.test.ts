import { describe, expect, it } from 'vitest';
import { ApiError } from '@client/api/client';
import { codeField, codeProblem, codeRefusal, codeRule, codeToSend } from './two-factor';

describe('the two-factor code of a money or password form', () => {
  it('takes six digits or a recovery code, spaces dropped', () => {
    expect(codeToSend(' 123 456 ')).toBe('123456');
    expect(codeProblem('123 456')).toBeNull();
    expect(codeProblem('abcde-fghjk')).toBeNull();
    expect(codeProblem('ABCDEFGHJK')).toBeNull();
    expect(codeProblem('')).toBe('errors.TWO_FACTOR_REQUIRED');
    expect(codeProblem('12345')).toBe('errors.TWO_FACTOR_CODE_WRONG');
    expect(codeProblem('ABCDE-FGHJ0')).toBe('errors.TWO_FACTOR_CODE_WRONG');
  });

  it('is checked only while the field is asked for', () => {
    let asked = false;
    const rule = codeRule(() => asked);
    expect(rule.safeParse('').success).toBe(true);
    asked = true;
    expect(rule.safeParse('').error?.issues[0]?.message).toBe('errors.TWO_FACTOR_REQUIRED');
    expect(rule.safeParse('654321').success).toBe(true);
  });

  it('is sent only while shown and typed', () => {
    expect(codeField(false, '123456')).toEqual({});
    expect(codeField(true, '')).toEqual({});
    expect(codeField(true, '123 456')).toEqual({ code: '123456' });
  });

  it("puts the server's refusal of the code on the code field, and leaves others alone", () => {
    const wrong = codeRefusal(new ApiError('TWO_FACTOR_CODE_WRONG', 'wrong', 400));
    expect(wrong).toBeInstanceOf(ApiError);
    expect((wrong as ApiError).field).toBe('code');
    expect((wrong as ApiError).status).toBe(400);
    const other = new ApiError('WRONG_TRADE_PASSWORD', 'no', 403, 'tradePassword');
    expect(codeRefusal(other)).toBe(other);
    const plain = new Error('x');
    expect(codeRefusal(plain)).toBe(plain);
  });
});
