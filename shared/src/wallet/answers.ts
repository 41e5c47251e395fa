import { z } from 'zod';
import { depositChannels, depositStatuses, transferKinds } from './values';
import {
  decimal,
  each,
  id,
  money,
  ms,
  network,
  ofUser,
  reviewed,
  text,
} from '../contract/primitives';

export const accountSummaryDto = z
  .object({
    ...each(money, 'available', 'inOrders', 'withdrawHold', 'savings'),
    totalAssets: money.describe('minor units, real money only: practice money is never part of it'),
    pnlTotal: money.describe('minor units, real orders only'),
    pnlToday: money,
    creditScore: z.int(),
    verified: z.boolean(),
    practice: z
      .object({
        ...each(money, 'available', 'inOrders'),
        pnlTotal: money.describe('minor units, practice orders only'),
        pnlToday: money,
        resetTo: money.describe('PRACTICE_BALANCE: what a reset sets the practice balance to'),
      })
      .describe('the practice balance (issue 19): never part of the real figures above'),
  })
  .meta({ id: 'AccountSummary' });
export const fundRecordDto = z
  .object({
    id,
    type: z.enum(transferKinds),
    amount: money.describe('signed: credits positive, debits negative'),
    balanceAfter: money,
    createdAt: ms,
    ref: text.nullable().describe('what moved it, e.g. `deposit:12`, `withdrawal:7`'),
  })
  .meta({ id: 'FundRecord' });
export const arrivalDto = z
  .object({
    withinMinutes: z.int().describe('expected at most this many minutes after it is asked for'),
    confirmations: z.int().optional().describe('USDT: network confirmations waited for'),
  })
  .meta({ id: 'Arrival' });
export const channelExtras = {
  arrival: arrivalDto,
  demo: z
    .boolean()
    .describe('the receiving details are the demo placeholders (development only): send nothing'),
};
export const depositChannelDto = z
  .discriminatedUnion('channel', [
    z.object({
      channel: z.literal('bank'),
      ...each(text, 'bankName', 'holderName'),
      cardNumber: text.describe(
        'in the form of `country` (shared/src/wallet/bank-account.ts): IBAN, card or account number',
      ),
      country: text.describe(
        "the receiving account's country (ISO 3166 alpha-2): the number's form follows it",
      ),
      branch: text.optional().describe('where the country addresses transfers to a branch (JP)'),
      ...each(money, 'min', 'max'),
      ...channelExtras,
    }),
    z.object({
      channel: z.enum(['usdt-trc20', 'usdt-erc20']),
      network,
      address: text,
      rate: decimal.describe('account currency credited per USDT, a decimal string'),
      ...each(money, 'min', 'max'),
      ...channelExtras,
    }),
  ])
  .meta({ id: 'DepositChannel' });
export const depositDto = z
  .object({
    id,
    channel: z.enum(depositChannels),
    amount: money.describe('what is (or will be) credited'),
    quantity: z.int().optional().describe('USDT channels: the USDT sent, in minor units'),
    rate: decimal.optional().describe('USDT channels: the rate applied, a decimal string'),
    remark: text.optional(),
    screenshotId: text
      .optional()
      .describe(
        'the transfer screenshot: GET /api/uploads/{id} (its owner and operators only); always on bank deposits',
      ),
    txId: text
      .optional()
      .describe('USDT channels: the on-chain transaction id, lower case (ERC20 with its 0x)'),
    resubmittedFrom: id.optional().describe('the rejected deposit this one corrects'),
    source: z
      .enum(['claim', 'chain'])
      .describe(
        'claim: the user reported it (bank, or a USDT transfer that did not arrive); chain: the watcher saw a USDT transfer to the user’s own address',
      ),
    chain: z
      .object({
        fromAddress: text.describe('the sender'),
        toAddress: text.describe('the receiving address (the user’s own)'),
        blockNumber: z.int(),
        logIndex: z.int().describe('which transfer of the transaction'),
        confirmations: z.int().describe('blocks on top of it, its own included, when last seen'),
        requiredConfirmations: z.int().describe('when it is credited'),
        explorerUrl: text.describe('the transaction on a public block explorer'),
      })
      .optional()
      .describe('USDT transfers read from the chain (by the watcher or for a claim)'),
    ...each(
      text.optional().describe('bank deposits: what the user said they paid from'),
      'payerBank',
      'payerCard',
      'payerName',
    ),
    status: z
      .enum(depositStatuses)
      .describe(
        'confirming: seen on chain, waiting for its confirmations; pending: waits for an operator; approved: credited; rejected; dropped: left the chain in a reorganisation before it was confirmed (nothing credited)',
      ),
    ...reviewed,
  })
  .meta({ id: 'Deposit' });
export const opsDepositDto = depositDto.extend({ ...ofUser }).meta({ id: 'OpsDeposit' });
export const flaggedSenderDto = z
  .object({ network, address: text, reason: text, createdAt: ms })
  .meta({ id: 'FlaggedSender' });
export const withdrawalAccountDto = z
  .discriminatedUnion('type', [
    z.object({
      id,
      type: z.literal('bank'),
      ...each(text, 'holderName', 'nationality', 'bankName', 'cardNumber'),
      branch: text.optional().describe('where the country addresses transfers to a branch (JP)'),
      bankAddress: text.optional(),
      createdAt: ms,
      usableAt: ms.describe(
        'withdrawals to it are accepted from this instant (the new-account hold)',
      ),
    }),
    z.object({
      id,
      type: z.literal('coin'),
      network,
      address: text,
      createdAt: ms,
      usableAt: ms.describe(
        'withdrawals to it are accepted from this instant (the new-account hold)',
      ),
    }),
  ])
  .meta({ id: 'WithdrawalAccount' });
export const withdrawalDto = z
  .object({
    id,
    accountId: id,
    account: withdrawalAccountDto, // the destination, as bound (a `.describe` would inline it)
    amount: money.describe('what leaves the balance, fee included'),
    fee: money.describe('the part of `amount` kept as the fee'),
    receive: money.describe('what is paid to the account: amount − fee'),
    status: z.enum(['pending', 'success', 'failed']),
    ...reviewed,
  })
  .meta({ id: 'Withdrawal' });
export const withdrawalHolderDto = z
  .object({
    holderName: text
      .nullable()
      .describe("the verified identity's name, which a bank account is bound in; null before"),
    verifyFirst: z
      .boolean()
      .describe(
        'no bank account can be bound before the identity is verified (WITHDRAW_REQUIRES_KYC on, none verified yet)',
      ),
  })
  .meta({ id: 'WithdrawalHolder' });
export const withdrawalQuoteDto = z
  .object({
    ...each(money, 'amount', 'fee', 'receive'),
    arrival: arrivalDto,
  })
  .meta({ id: 'WithdrawalQuote' });
export const opsWithdrawalDto = withdrawalDto.extend(ofUser).meta({ id: 'OpsWithdrawal' });
export const withdrawalRulesDto = z
  .object({
    ...each(money.describe('bounds of one withdrawal, minor units'), 'min', 'max'),
    feeBps: z.int().describe('fee in basis points of the amount, rounded down (WITHDRAW_FEE_BPS)'),
    feeMin: money.describe('smallest fee, minor units (WITHDRAW_FEE_MIN)'),
    requiresKyc: z.boolean().describe('whether a verified identity is needed'),
  })
  .meta({ id: 'WithdrawalRules' });
export const ledgerCheckDto = z
  .object({ ok: z.boolean(), problems: z.array(text) })
  .meta({ id: 'LedgerCheck' });
