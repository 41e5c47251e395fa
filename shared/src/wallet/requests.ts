import { z } from 'zod';
import {
  accountNumberProblem,
  isValidIban,
  needsBranch,
  normalizeAccountNumber,
} from './bank-account';
import { countryCodes } from '../countries';
import { freeText, personName } from '../text';
import { twoFactorCode } from '../security/model';
import {
  depositChannels,
  depositStatuses,
  networkOfChannel,
  transferKinds,
  txIdPatterns,
  type CoinNetwork,
} from './model';

/** Request schemas of the wallet endpoints (API.md, Wallet and Operators). */

const idPattern = /^[1-9]\d{0,15}$/;

/** A row id: a JSON number or a string of digits (ids travel as strings in answers). */
export const idValue = z.preprocess(
  (v) => (typeof v === 'string' && idPattern.test(v) ? Number(v) : v),
  z.int({ error: 'must be an id' }).positive({ error: 'must be an id' }),
);
export const idParam = z.object({ id: idValue });

/**
 * A whole number of minor units: a JSON integer, or digits in a form field. Whether it is in range
 * is the server's rule (400 AMOUNT_OUT_OF_RANGE), so negative and zero pass here.
 */
export const minorUnits = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*-?\d{1,15}\s*$/.test(v) ? Number(v) : v),
  z.int({ error: 'must be a whole number of minor units' }),
);

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().regex(idPattern, 'cursor is not valid').transform(Number).optional(),
});
export const ledgerQuery = pageQuery.extend({ type: z.enum(transferKinds).optional() });
export const depositReviewQuery = pageQuery.extend({
  status: z.enum(depositStatuses).optional(),
});
export const withdrawalReviewQuery = pageQuery.extend({
  status: z.enum(['pending', 'success', 'failed']).optional(),
});
export const rejectBody = z.object({
  reason: freeText().trim().min(1, 'reason is required').max(200),
});

export const coinAddressPatterns: Record<CoinNetwork, RegExp> = {
  // Base58 (no 0, O, I, l) after the leading T.
  TRC20: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  ERC20: /^0x[0-9a-fA-F]{40}$/,
};

/** Refines an object's `address` to the form of its `network` (naming `address`). */
function checkCoinAddress(v: { network: CoinNetwork; address: string }, ctx: z.RefinementCtx) {
  if (!coinAddressPatterns[v.network].test(v.address))
    ctx.addIssue({
      code: 'custom',
      path: ['address'],
      message:
        v.network === 'TRC20'
          ? 'a TRC20 address is T followed by 33 base58 characters'
          : 'an ERC20 address is 0x followed by 40 hex digits',
    });
}

/**
 * POST /api/ops/flagged-senders: a sender whose USDT transfers wait for an operator instead of
 * being credited by themselves (ERC20 addresses compared in lower case).
 */
export const flaggedSenderBody = z
  .object({
    network: z.enum(['TRC20', 'ERC20']),
    address: z.string().trim(),
    reason: freeText().trim().min(1, 'reason is required').max(200),
  })
  .superRefine(checkCoinAddress)
  .transform((v) => ({
    ...v,
    address: v.network === 'ERC20' ? v.address.toLowerCase() : v.address,
  }));
export const flaggedSenderParams = z.object({
  network: z.enum(['TRC20', 'ERC20']),
  address: z.string().max(64),
});

/** What a depositor paid from: a card or account number, or an IBAN (Europe). */
export const payerAccount = z
  .string()
  .max(60)
  .transform(normalizeAccountNumber)
  .pipe(
    z
      .string()
      .refine(
        (v) => /^\d{8,30}$/.test(v) || isValidIban(v),
        'card number must be 8-30 digits, or a valid IBAN',
      ),
  );

/**
 * A withdrawal account's number as typed (spaces and dashes dropped, letters in capitals); its
 * form is checked against the holder's nationality (shared/src/wallet/bank-account.ts).
 */
export const bankAccountNumber = z
  .string()
  .max(60)
  .transform(normalizeAccountNumber)
  .pipe(z.string().min(1, 'account number is required'));

export const nationality = z
  .string()
  .trim()
  .toUpperCase()
  .refine((c) => countryCodes.has(c), 'nationality must be a country code such as CN or US');

const text = (max: number, what: string) =>
  freeText().trim().min(1, `${what} is required`).max(max);
/** A person's name: no invisible characters either (shared/src/text.ts). */
const nameOf = (what: string) => personName().trim().min(1, `${what} is required`).max(50);
/** Typed in a textarea: line breaks are its own. */
const remark = freeText({ multiline: true })
  .trim()
  .max(140)
  .optional()
  .transform((v) => v || undefined);

/**
 * Which money a money endpoint moves: only `real` is ever taken; `practice` is refused with 400
 * PRACTICE_NOT_ALLOWED (practice money only pays for practice orders, issue 19).
 */
export const realMoneyMode = z
  .enum(['real', 'practice'])
  .optional()
  .describe('real only: practice money is refused with 400 PRACTICE_NOT_ALLOWED');

/** A rejected deposit of the user's that this one corrects (at most once; API.md, Deposits). */
const resubmitOf = z.preprocess((v) => (v === '' ? undefined : v), idValue.optional());

/**
 * POST /api/deposits (multipart fields; the screenshot is a file part). A bank deposit needs its
 * screenshot; a USDT deposit needs its transaction id, in its network's form, and its screenshot
 * is optional (DECISIONS.md, Deposit transaction ids).
 */
export const depositBody = z.discriminatedUnion('channel', [
  z.object({
    channel: z.literal('bank'),
    amount: minorUnits,
    payerBank: text(60, 'bank name'),
    payerCard: payerAccount,
    payerName: nameOf('name'),
    remark,
    mode: realMoneyMode,
    resubmitOf,
  }),
  z
    .object({
      channel: z.enum(depositChannels.filter((c) => c !== 'bank') as ['usdt-trc20', 'usdt-erc20']),
      // What the user thinks they sent; the claim records the chain's amount (API.md, Deposits).
      quantity: minorUnits.optional(),
      txId: z.string().trim().min(1, 'transaction id is required').max(80),
      remark,
      mode: realMoneyMode,
      resubmitOf,
    })
    .superRefine((v, ctx) => {
      if (v.txId && !txIdPatterns[networkOfChannel(v.channel)].test(v.txId))
        ctx.addIssue({
          code: 'custom',
          path: ['txId'],
          message:
            v.channel === 'usdt-trc20'
              ? 'a TRC20 transaction id is 64 hex digits (no 0x)'
              : 'an ERC20 transaction id is 0x followed by 64 hex digits',
        });
    }),
]);

/**
 * A transaction password typed to confirm a money action. Any wrong one is a wrong password
 * (403, counted by the throttle), so only its presence and length are checked here.
 */
const tradePassword = z.string().min(1, 'transaction password is required').max(6);

/** With two-factor sign-in on, binding an account and each withdrawal also take a code. */
const code = twoFactorCode.optional();

/** POST /api/withdrawal-accounts: where withdrawals go, confirmed with the transaction password. */
export const withdrawalAccountBody = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('bank'),
      holderName: nameOf('holder name'),
      nationality,
      bankName: text(60, 'bank name'),
      /** The branch's name or number, where the holder's country addresses transfers to one (JP). */
      branch: freeText()
        .trim()
        .max(60)
        .optional()
        .transform((v) => v || undefined),
      /** The holder's country decides the form: IBAN, CN card or account, or account number. */
      cardNumber: bankAccountNumber,
      bankAddress: freeText()
        .trim()
        .max(200)
        .optional()
        .transform((v) => v || undefined),
      tradePassword,
      code,
    })
    .superRefine((v, ctx) => {
      if (!countryCodes.has(v.nationality)) return; // reported on nationality already
      if (needsBranch(v.nationality) && !v.branch)
        ctx.addIssue({
          code: 'custom',
          path: ['branch'],
          message: 'branch is required for this country (its name or number)',
        });
      const problem = accountNumberProblem(v.nationality, v.cardNumber);
      if (problem) ctx.addIssue({ code: 'custom', path: ['cardNumber'], message: problem });
    }),
  z
    .object({
      type: z.literal('coin'),
      network: z.enum(['TRC20', 'ERC20']),
      address: z.string().trim().max(100),
      tradePassword,
      code,
    })
    .superRefine(checkCoinAddress),
]);

/**
 * GET /api/withdrawals/quote: what a withdrawal of `amount` to `accountId` costs. The amount is
 * digits only (no sign, no fraction, at most 15): anything else is 400 naming `amount`.
 */
export const withdrawalQuoteQuery = z.object({
  accountId: idValue,
  amount: z
    .string({ error: 'amount is required' })
    .regex(/^\d{1,15}$/, 'amount must be a whole number of minor units')
    .transform(Number),
});

/** POST /api/withdrawals */
export const withdrawalBody = z.object({
  accountId: idValue,
  amount: minorUnits,
  tradePassword,
  code,
  mode: realMoneyMode,
});

export type DepositBody = z.infer<typeof depositBody>;
export type WithdrawalAccountBody = z.infer<typeof withdrawalAccountBody>;
export type WithdrawalBody = z.infer<typeof withdrawalBody>;
export type LedgerQuery = z.infer<typeof ledgerQuery>;
