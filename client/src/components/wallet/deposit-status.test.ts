import { describe, expect, it } from 'vitest';
import type { Deposit } from '@shared/wallet/model';
import { confirmationsOf, depositStatusKey, depositTone } from './deposit-status';

const chain = (confirmations: number, requiredConfirmations: number): Deposit['chain'] => ({
  fromAddress: 'TSender',
  toAddress: 'TOwn',
  blockNumber: 100,
  logIndex: 0,
  confirmations,
  requiredConfirmations,
  explorerUrl: 'https://tronscan.org/#/transaction/ab',
});

describe('confirmations of a USDT transfer', () => {
  it('count towards the required number, rounded down in percent', () => {
    expect(confirmationsOf({ chain: chain(3, 12) })).toEqual({
      done: 3,
      required: 12,
      percent: 25,
    });
    expect(confirmationsOf({ chain: chain(11, 12) })?.percent).toBe(91);
  });

  it('never show more than required, nor less than none', () => {
    expect(confirmationsOf({ chain: chain(15, 12) })).toEqual({
      done: 12,
      required: 12,
      percent: 100,
    });
    expect(confirmationsOf({ chain: chain(-1, 12) })?.done).toBe(0);
  });

  it("take the channel's number when the deposit has none, and nothing without chain facts", () => {
    expect(confirmationsOf({ chain: chain(2, 0) }, 20)).toEqual({
      done: 2,
      required: 20,
      percent: 10,
    });
    expect(confirmationsOf({ chain: chain(2, 0) })).toBeNull();
    expect(confirmationsOf({}, 20)).toBeNull();
  });

  it('call a transfer the network confirmed credited, and an approved claim approved', () => {
    expect(depositStatusKey({ status: 'approved', source: 'chain' })).toBe(
      'wallet.deposit.creditedTag',
    );
    expect(depositStatusKey({ status: 'approved', source: 'claim' })).toBe(
      'wallet.depositStatus.approved',
    );
    expect(depositStatusKey({ status: 'confirming', source: 'chain' })).toBe(
      'wallet.depositStatus.confirming',
    );
  });

  it('give every status a tone', () => {
    expect(depositTone).toEqual({
      confirming: 'pending',
      pending: 'pending',
      approved: 'good',
      rejected: 'bad',
      dropped: 'bad',
    });
  });
});
