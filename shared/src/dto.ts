import { z } from 'zod';
import * as content from './content';
import { errorCodes } from './errors';
import { depositChannels, transferKinds } from './wallet';

/**
 * The answers of the REST API as zod schemas: what GET /api/openapi.json describes (each `id` is a
 * component of it) and what a route declares it answers (server/src/platform/http/route.ts).
 * Requests are described by the schemas the routes parse with (*.schemas.ts, accounts.ts, …). A
 * type test (server/src/platform/http/openapi.test.ts) holds each one to its type in shared/.
 */

const ms = z.int().describe('epoch milliseconds');
const money = z.int().describe('minor units: 1050 is 10.50');
const decimal = z.string().describe('a decimal string: "67012.35", "0.85"');
const id = z.string().describe('a row id (digits)');
const text = z.string();
/** One schema under several names: `...each(money, 'min', 'max')`. */
const each = <K extends string, S extends z.ZodType>(schema: S, ...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, schema])) as Record<K, S>;
/**
 * A named shape or null. Not `.nullable()`: zod-to-openapi would mark the named component itself
 * nullable and refer to it without the null.
 */
const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);
const kycStatus = z.enum(['none', 'pending', 'verified', 'rejected']);
const network = z.enum(['TRC20', 'ERC20']);
/** A reviewed item's common fields. */
const reviewed = { reason: text.optional(), createdAt: ms, reviewedAt: ms.optional() };
const ofUser = { userId: id, userAccount: text };

export const userDto = z
  .object({
    id,
    ...each(text, 'account', 'phone', 'nickname', 'inviteCode'),
    creditScore: z.int(),
    kyc: z.object({ status: kycStatus, reason: text.optional() }),
    createdAt: ms,
  })
  .meta({ id: 'User' });
export const appInfoDto = z
  .object({
    ...each(text, 'name', 'currency', 'serviceUrl'),
    ...each(z.array(text), 'depositChannels', 'languages'),
    testClock: z.boolean().optional(),
  })
  .meta({ id: 'AppInfo' });
export const accountSummaryDto = z
  .object({
    ...each(money, 'available', 'inOrders', 'withdrawHold', 'savings', 'totalAssets'),
    ...each(money, 'pnlTotal', 'pnlToday'),
    creditScore: z.int(),
    verified: z.boolean(),
    practice: z
      .object({
        ...each(money, 'available', 'inOrders', 'pnlTotal', 'pnlToday'),
        resetTo: money.describe('PRACTICE_BALANCE: what a reset sets the practice balance to'),
      })
      .describe('the practice balance: never part of the real figures above'),
  })
  .meta({ id: 'AccountSummary' });

export const tickRefDto = z
  .object({ seq: z.int(), ts: ms, price: decimal })
  .meta({ id: 'TickRef' });
export const tapeTickDto = tickRefDto
  .extend({ qty: z.int().describe('lots') })
  .meta({ id: 'TapeTick' });
export const fairnessPeriodDto = z
  .object({
    productId: text,
    ...each(ms, 'periodStart', 'periodEnd', 'committedAt'),
    commitment: text.describe('SHA-256 of the secret, hex'),
    model: z.object({
      ...each(z.int(), 'version', 'precision', 'tickSize'),
      startPrice: decimal,
      ...each(z.number(), 'annualVol', 'jumpsPerDay', 'typicalLots'),
    }),
    start: z
      .object({ seq: z.int(), ts: ms.nullable(), ...each(text, 'logPrice', 'logVol') })
      .nullable(),
    secret: text.nullable().describe('hex, once revealed'),
    revealedAt: ms.nullable(),
  })
  .meta({ id: 'FairnessPeriod' });
export const productDto = z
  .object({
    ...each(text, 'id', 'name'),
    category: z.enum(['crypto', 'forex', 'metals', 'energy', 'index']),
    precision: z.int(),
    status: z.enum(['open', 'closed', 'maintenance']),
    opensAt: ms.optional(),
    durations: z.array(z.object({ seconds: z.int(), rate: decimal })),
    ...each(money, 'minStake', 'maxStake'),
    last: orNull(tickRefDto),
    stats24h: z.object(
      each(decimal, 'open', 'high', 'low', 'last', 'change', 'changePct', 'volume', 'amount'),
    ),
  })
  .meta({ id: 'Product' });
export const orderDto = z
  .object({
    id,
    mode: z.enum(['real', 'practice']).describe('practice orders stake practice money only'),
    productId: text,
    direction: z.enum(['up', 'down']),
    amount: money,
    duration: z.int().describe('seconds'),
    rate: decimal,
    status: z.enum(['open', 'won', 'lost', 'draw', 'void']),
    entry: orNull(tickRefDto).describe(
      'the first tick recorded after acceptance; null until it is recorded, and on a NO_ENTRY_TICK void',
    ),
    exit: orNull(tickRefDto),
    ...each(money.nullable(), 'payout', 'pnl'),
    ...each(ms, 'createdAt', 'expiresAt'),
    settledAt: ms.nullable(),
    voidReason: text.nullable().describe('FEED_STALE or NO_ENTRY_TICK when void'),
  })
  .meta({ id: 'Order' });

export const fundRecordDto = z
  .object({
    id,
    type: z.enum(transferKinds),
    amount: money.describe('signed: credits positive, debits negative'),
    balanceAfter: money,
    createdAt: ms,
    ref: text.nullable(),
  })
  .meta({ id: 'FundRecord' });
export const depositChannelDto = z
  .discriminatedUnion('channel', [
    z.object({
      channel: z.literal('bank'),
      ...each(text, 'bankName', 'cardNumber', 'holderName'),
      country: text.describe("the receiving account's country: the number's form follows it"),
      branch: text.optional().describe('where the country addresses transfers to a branch (JP)'),
      ...each(money, 'min', 'max'),
    }),
    z.object({
      channel: z.enum(['usdt-trc20', 'usdt-erc20']),
      network,
      address: text,
      rate: decimal,
      ...each(money, 'min', 'max'),
    }),
  ])
  .meta({ id: 'DepositChannel' });
export const depositDto = z
  .object({
    id,
    channel: z.enum(depositChannels),
    amount: money.describe('what is (or will be) credited'),
    quantity: z.int().optional().describe('USDT channels: USDT in minor units'),
    rate: decimal.optional(),
    remark: text.optional(),
    screenshotId: text.describe('GET /api/uploads/{id}'),
    status: z.enum(['pending', 'approved', 'rejected']),
    ...reviewed,
  })
  .meta({ id: 'Deposit' });
export const opsDepositDto = depositDto
  .extend({
    ...ofUser,
    ...each(text.optional(), 'payerBank', 'payerCard', 'payerName'),
  })
  .meta({ id: 'OpsDeposit' });
export const withdrawalAccountDto = z
  .discriminatedUnion('type', [
    z.object({
      id,
      type: z.literal('bank'),
      ...each(text, 'holderName', 'nationality', 'bankName', 'cardNumber'),
      branch: text.optional().describe('where the country addresses transfers to a branch (JP)'),
      bankAddress: text.optional(),
      createdAt: ms,
    }),
    z.object({ id, type: z.literal('coin'), network, address: text, createdAt: ms }),
  ])
  .meta({ id: 'WithdrawalAccount' });
export const withdrawalDto = z
  .object({
    id,
    accountId: id,
    account: withdrawalAccountDto,
    amount: money,
    status: z.enum(['pending', 'success', 'failed']),
    ...reviewed,
  })
  .meta({ id: 'Withdrawal' });

export const opsKycSubmissionDto = z
  .object({
    id,
    ...ofUser,
    ...each(text, 'name', 'idNumber', 'nationality', 'frontId', 'backId'),
    status: z.enum(['pending', 'verified', 'rejected']),
    ...reviewed,
    sameIdNumber: z
      .array(z.object({ ...ofUser, status: z.enum(['pending', 'verified']) }))
      .describe('other accounts with this ID number under review or verified'),
  })
  .meta({ id: 'OpsKycSubmission' });

export const newsSummaryDto = z
  .object({
    id,
    lang: text,
    ...each(text, 'title', 'summary'),
    publishedAt: ms,
  })
  .meta({ id: 'NewsSummary' });
const messageKind = z.enum([...content.systemMessageKinds, 'custom']);
const banner = z.object({
  id,
  ...each(text, 'title', 'subtitle'),
  link: text.nullable(),
  theme: z.enum(content.bannerThemes),
});
const highlight = z.object({ id, icon: z.enum(content.highlightIcons), title: text, body: text });

/** The one error body of every 4xx and 5xx. */
export const errorDto = z
  .object({
    error: z.object({
      code: z.enum(errorCodes),
      message: text,
      field: text.optional(),
      requestId: text.optional(),
    }),
  })
  .meta({ id: 'Error' });
export const registeredDto = z.object({ user: userDto }).meta({ id: 'Registered' });
export const loginAnswerDto = z.object({ token: text, user: userDto }).meta({ id: 'LoginAnswer' });
export const candleDto = z
  .object({ t: ms, ...each(decimal, 'o', 'h', 'l', 'c', 'v') })
  .meta({ id: 'Candle' });
export const opsWithdrawalDto = withdrawalDto.extend(ofUser).meta({ id: 'OpsWithdrawal' });
export const withdrawalRulesDto = z
  .object({ ...each(money, 'min', 'max'), requiresKyc: z.boolean() })
  .meta({ id: 'WithdrawalRules' });
export const ledgerCheckDto = z
  .object({ ok: z.boolean(), problems: z.array(text) })
  .meta({ id: 'LedgerCheck' });
export const kycStateDto = z
  .object({ status: kycStatus, reason: text.optional(), submittedAt: ms.optional() })
  .meta({ id: 'KycState' });
export const savingsOverviewDto = z
  .object({
    ...each(money, 'total', 'confirmed', 'pending', 'yesterdayIncome', 'totalIncome'),
    ...each(money, 'inRemainingToday', 'outRemainingToday'),
    annualRate: decimal,
  })
  .meta({ id: 'SavingsOverview' });
export const savingsRecordDto = z
  .object({
    id,
    type: z.enum(['in', 'out', 'income']),
    amount: money,
    day: text.describe('the platform day, YYYY-MM-DD'),
    createdAt: ms,
  })
  .meta({ id: 'SavingsRecord' });
export const testClockStateDto = z
  .object({ ...each(ms, 'now', 'nextCutoff') })
  .meta({ id: 'TestClockState' });
export const contentPageDto = z
  .object({
    slug: z.enum(content.pageSlugs),
    ...each(text, 'lang', 'title', 'body'),
    updatedAt: ms,
  })
  .meta({ id: 'ContentPage' });
export const newsItemDto = newsSummaryDto.extend({ body: text }).meta({ id: 'NewsItem' });
export const homeContentDto = z
  .object({
    banners: z.array(banner),
    highlights: z.array(highlight),
    news: z.array(newsSummaryDto),
    newsCursor: text.nullable(),
  })
  .meta({ id: 'HomeContent' });
export const messageDto = z
  .object({
    id,
    kind: messageKind,
    params: z.object({
      amount: money
        .optional()
        .describe("minor units: a deposit's, a withdrawal's, an order's stake"),
      payout: money.optional().describe("a settled order's payout"),
      product: text.optional().describe("a settled order's product id"),
      reason: text.optional().describe("a review's reason, or a void order's reason code"),
      ref: text.optional().describe('the deposit, withdrawal or order the message is about'),
    }),
    ...each(text, 'title', 'body'),
    ...each(z.boolean(), 'broadcast', 'read'),
    createdAt: ms,
  })
  .meta({ id: 'Message' });
export const opsMessageDto = z
  .object({
    id,
    userId: id.nullable(),
    kind: messageKind,
    ...each(text, 'title', 'body'),
    createdAt: ms,
  })
  .meta({ id: 'OpsMessage' });

/** A page of a list (`?limit=&cursor=`): the items, newest first, and the next page's cursor. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    nextCursor: z.string().nullable().describe('null on the last page'),
  });

/** GET/PUT/DELETE /api/me/favourites: the user's favourite product ids, in the order marked. */
export const favouritesDto = z
  .object({ products: z.array(text).describe('product ids, the first marked first') })
  .meta({ id: 'Favourites' });
