import { describe, expect, it } from 'vitest';
import { accountNumberReadBack, rateShown, txIdRule } from './rules';

describe('a withdrawal account number read back under its input', () => {
  it('groups an IBAN or a Chinese card by four, whatever the spacing typed', () => {
    expect(accountNumberReadBack('FR', 'fr7630006000011234567890189')).toBe(
      'FR76 3000 6000 0112 3456 7890 189',
    );
    expect(accountNumberReadBack('DE', ' DE89 3704 0044-0532 0130 00 ')).toBe(
      'DE89 3704 0044 0532 0130 00',
    );
    expect(accountNumberReadBack('CN', '6222020000000000000')).toBe('6222 0200 0000 0000 000');
  });

  it('reads back a long account number in its own separators, else by four', () => {
    expect(accountNumberReadBack('KR', '123456-01-234567-89012')).toBe('123456-01-234567-89012');
    expect(accountNumberReadBack('US', '12345678901234567890')).toBe('1234 5678 9012 3456 7890');
  });

  it('adds nothing for an empty field or an account number the input shows whole', () => {
    expect(accountNumberReadBack('FR', '  ')).toBeNull();
    expect(accountNumberReadBack('JP', '1234567')).toBeNull();
    expect(accountNumberReadBack('KR', '123456-01-234567')).toBeNull();
    expect(accountNumberReadBack('TH', '123-4-56789-0')).toBeNull();
  });
});

describe('a USDT transaction id', () => {
  const hex = 'ab'.repeat(32);
  it('is 64 hex digits on TRC20, 0x and 64 on ERC20, any case, spaces around forgiven', () => {
    expect(txIdRule('TRC20')(hex)).toBeNull();
    expect(txIdRule('TRC20')(` ${hex.toUpperCase()} `)).toBeNull();
    expect(txIdRule('ERC20')(`0x${hex}`)).toBeNull();
  });
  it('refuses the other network’s form, short ids, non-hex and blanks', () => {
    expect(txIdRule('TRC20')(`0x${hex}`)).toBe('wallet.rules.txIdTrc20');
    expect(txIdRule('ERC20')(hex)).toBe('wallet.rules.txIdErc20');
    expect(txIdRule('TRC20')(hex.slice(1))).toBe('wallet.rules.txIdTrc20');
    expect(txIdRule('ERC20')(`0x${'g'.repeat(64)}`)).toBe('wallet.rules.txIdErc20');
    expect(txIdRule('ERC20')('  ')).toBe('common.required');
  });
});

describe('the USDT rate line', () => {
  it('is left out when it says 1 USDT = 1 USDT, else shows two decimals at least', () => {
    expect(rateShown('1', 'USDT')).toBeNull();
    expect(rateShown('1.00', 'USDT')).toBeNull();
    expect(rateShown('1', 'USD')).toBe('1.00');
    expect(rateShown('7.25', 'CNY')).toBe('7.25');
    expect(rateShown('7.12345', 'CNY')).toBe('7.12345');
  });
});
