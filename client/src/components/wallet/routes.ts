import type { DepositChannelId } from '@shared/wallet/model';
import { paths } from '@client/app/route-table';

/** Paths of the money and identity screens (seed spec §2). */
export const walletPaths = {
  recharge: paths.recharge,
  transfer: paths.transfer,
  deposits: paths.depositList,
  withdraw: paths.withdraw,
  withdrawals: paths.withdrawList,
  accounts: paths.account,
  accountDetail: paths.accountDetail,
  moneyRecord: paths.moneyRecord,
  verify: paths.verify,
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
    path: paths.rechargeBank,
    testId: 'channel-bank',
    page: 'pages.rechargeBank',
    title: 'wallet.channel.bank',
  },
  'usdt-trc20': {
    path: paths.rechargeTrc20,
    testId: 'channel-usdt-trc20',
    page: 'pages.rechargeTrc20',
    title: 'wallet.channel.usdtTrc20',
  },
  'usdt-erc20': {
    path: paths.rechargeErc20,
    testId: 'channel-usdt-erc20',
    page: 'pages.rechargeErc20',
    title: 'wallet.channel.usdtErc20',
  },
};

export function isDepositChannel(value: string | null): value is DepositChannelId {
  return value === 'bank' || value === 'usdt-trc20' || value === 'usdt-erc20';
}

/**
 * The claim form of a USDT channel ("my transfer did not arrive"): the channel's own page with
 * `?claim=1`, so the route table stays as it is and Back returns to the address; `resubmitOf`
 * when it corrects a rejected claim.
 */
export function usdtClaimPath(
  channel: Exclude<DepositChannelId, 'bank'>,
  resubmitOf?: string,
): string {
  const path = `${depositChannelInfo[channel].path}?claim=1`;
  return resubmitOf ? `${path}&resubmitOf=${encodeURIComponent(resubmitOf)}` : path;
}
