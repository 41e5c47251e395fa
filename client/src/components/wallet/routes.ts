import type { DepositChannelId } from '@shared/wallet';

/** Paths of the money and identity screens (seed spec §2). */
export const walletPaths = {
  recharge: '/pages/recharge/recharge',
  transfer: '/pages/transfer/transfer',
  deposits: '/pages/withdraw-list/withdraw-open',
  withdraw: '/pages/withdraw-money/withdraw-money',
  withdrawals: '/pages/withdraw-list/withdraw-list',
  accounts: '/pages/account/account',
  accountDetail: '/pages/account/account-detail',
  moneyRecord: '/pages/money-record/money-record',
  verify: '/pages/verify/verify',
} as const;

/** Each deposit channel: its page, the page's title, its name, and the test id of its choice. */
export const depositChannelInfo: Record<
  DepositChannelId,
  {
    path: string;
    testId: string;
    page: 'pages.rechargeBank' | 'pages.rechargeTrc20' | 'pages.rechargeErc20';
    title: 'wallet.channel.bank' | 'wallet.channel.usdtTrc20' | 'wallet.channel.usdtErc20';
  }
> = {
  bank: {
    path: '/pages/recharge/recharge-bank-card',
    testId: 'channel-bank',
    page: 'pages.rechargeBank',
    title: 'wallet.channel.bank',
  },
  'usdt-trc20': {
    path: '/pages/recharge/recharge-usdt-trc20',
    testId: 'channel-usdt-trc20',
    page: 'pages.rechargeTrc20',
    title: 'wallet.channel.usdtTrc20',
  },
  'usdt-erc20': {
    path: '/pages/recharge/recharge-usdt-erc20',
    testId: 'channel-usdt-erc20',
    page: 'pages.rechargeErc20',
    title: 'wallet.channel.usdtErc20',
  },
};

export function isDepositChannel(value: string | null): value is DepositChannelId {
  return value === 'bank' || value === 'usdt-trc20' || value === 'usdt-erc20';
}
