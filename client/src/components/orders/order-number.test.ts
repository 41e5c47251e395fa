import { describe, expect, it } from 'vitest';
import { orderNumber } from './order-number';

describe('orderNumber', () => {
  it('pads short ids to six digits and keeps long ones whole', () => {
    expect(orderNumber('42')).toBe('#000042');
    expect(orderNumber('1234567')).toBe('#1234567');
  });
});
