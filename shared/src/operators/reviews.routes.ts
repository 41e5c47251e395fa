import { route } from '../contract/endpoint';
import type * as reviews from './reviews.endpoints';

/** The review queues' endpoints as the console calls them (no zod at run time). */
export const depositQueue = route<typeof reviews.depositQueue>('get', '/ops/deposits');
export const approveDeposit = route<typeof reviews.approveDeposit>(
  'post',
  '/ops/deposits/:id/approve',
);
export const rejectDeposit = route<typeof reviews.rejectDeposit>(
  'post',
  '/ops/deposits/:id/reject',
);
export const withdrawalQueue = route<typeof reviews.withdrawalQueue>('get', '/ops/withdrawals');
export const approveWithdrawal = route<typeof reviews.approveWithdrawal>(
  'post',
  '/ops/withdrawals/:id/approve',
);
export const rejectWithdrawal = route<typeof reviews.rejectWithdrawal>(
  'post',
  '/ops/withdrawals/:id/reject',
);
export const kycQueue = route<typeof reviews.kycQueue>('get', '/ops/kyc');
export const approveKyc = route<typeof reviews.approveKyc>('post', '/ops/kyc/:id/approve');
export const rejectKyc = route<typeof reviews.rejectKyc>('post', '/ops/kyc/:id/reject');
