import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@client/api/client';
import { codeProblem, codeToSend, isRecoveryCode, onCodeField } from './CodeField';
import { deviceTokenOf, keepDeviceToken } from './device-token';

describe('a typed two-factor code', () => {
  it('is sent without the spaces an app shows, in the case typed', () => {
    expect(codeToSend(' 123 456 ')).toBe('123456');
    expect(codeToSend('abcde-fghjk')).toBe('abcde-fghjk');
  });

  it('is six digits or a recovery code; blank asks for one, anything else is wrong', () => {
    expect(codeProblem('')).toBe('errors.TWO_FACTOR_REQUIRED');
    expect(codeProblem('   ')).toBe('errors.TWO_FACTOR_REQUIRED');
    expect(codeProblem('123456')).toBeNull();
    expect(codeProblem('123 456')).toBeNull();
    expect(codeProblem('ABCDE-FGHJK')).toBeNull();
    expect(codeProblem('abcdefghjk')).toBeNull();
    expect(codeProblem('12345')).toBe('errors.TWO_FACTOR_CODE_WRONG');
    expect(codeProblem('1234567')).toBe('errors.TWO_FACTOR_CODE_WRONG');
    // 0/O and 1/I are not in the recovery codes' alphabet.
    expect(codeProblem('ABCDE-FGHJ0')).toBe('errors.TWO_FACTOR_CODE_WRONG');
  });

  it('is a recovery code once it has letters or a dash', () => {
    expect(isRecoveryCode('123456')).toBe(false);
    expect(isRecoveryCode('abc')).toBe(true);
    expect(isRecoveryCode('23456-')).toBe(true);
  });

  it('wrong or used: the refusal is moved under the code input; others pass through', () => {
    const wrong = onCodeField(new ApiError('TWO_FACTOR_CODE_WRONG', 'wrong', 401));
    expect(wrong).toBeInstanceOf(ApiError);
    expect((wrong as ApiError).field).toBe('code');
    expect((wrong as ApiError).status).toBe(401);
    const other = new ApiError('BAD_CREDENTIALS', 'no', 401);
    expect(onCodeField(other)).toBe(other);
  });
});

describe('the device token', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is kept per account, whatever the case typed, under device:<account>', () => {
    const map = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => map.set(k, v),
    });
    expect(deviceTokenOf('Trader01')).toBeNull();
    keepDeviceToken(' Trader01 ', 'tok-1');
    expect(map.get('device:trader01')).toBe('tok-1');
    expect(deviceTokenOf('TRADER01')).toBe('tok-1');
    expect(deviceTokenOf('trader02')).toBeNull();
    expect(deviceTokenOf('  ')).toBeNull();
  });

  it('is simply absent where storage throws (private mode)', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    });
    expect(() => keepDeviceToken('a', 'b')).not.toThrow();
    expect(deviceTokenOf('a')).toBeNull();
  });
});
