import { route } from '../contract/endpoint';
import type * as wallet from './endpoints';

/** The wallet's endpoints as the clients call them (no zod at run time). */
export const accountSummary = route<typeof wallet.accountSummary>('get', '/account/summary');
export const fundRecords = route<typeof wallet.fundRecords>('get', '/wallet/ledger');
export const depositChannels = route<typeof wallet.depositChannels>('get', '/deposits/channels');
export const deposits = route<typeof wallet.deposits>('get', '/deposits');
export const createDeposit = route<typeof wallet.createDeposit>('post', '/deposits', true);
export const withdrawalAccounts = route<typeof wallet.withdrawalAccounts>(
  'get',
  '/withdrawal-accounts',
);
export const withdrawalHolder = route<typeof wallet.withdrawalHolder>(
  'get',
  '/withdrawal-accounts/holder',
);
export const withdrawalAccount = route<typeof wallet.withdrawalAccount>(
  'get',
  '/withdrawal-accounts/:id',
);
export const bindWithdrawalAccount = route<typeof wallet.bindWithdrawalAccount>(
  'post',
  '/withdrawal-accounts',
);
export const withdrawalRules = route<typeof wallet.withdrawalRules>('get', '/withdrawals/rules');
export const withdrawals = route<typeof wallet.withdrawals>('get', '/withdrawals');
export const createWithdrawal = route<typeof wallet.createWithdrawal>('post', '/withdrawals', true);
export const resetPractice = route<typeof wallet.resetPractice>('post', '/practice/reset');
