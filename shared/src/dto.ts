import { z } from 'zod';
import * as content from './content';
import { errorCodes } from './errors';
import { depositChannels, depositStatuses, transferKinds } from './wallet';

/**
 * The answers of the REST API as zod schemas: what GET /api/openapi.json describes (each `id` is a
 * component of it) and what a route declares it answers (server/src/platform/http/route.ts).
 * Requests are described by the schemas the routes parse with (*.schemas.ts, accounts.ts, …).
 *
 * The types the server and the client use for these answers are inferred from them (`export type
 * Order = z.infer<typeof orderDto>` in orders.ts, …), so a field is added, documented or changed
 * here and nowhere else (a field's `.describe` is its documentation, in the document too). Those
 * modules import this one as types only: this one imports value lists (errorCodes, …) from them.
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
    logoUrl: text.optional().describe('APP_LOGO_URL; absent: the mark built into the client'),
    ...each(text, 'legalEntity', 'legalRegistration'),
    riskWarning: text
      .optional()
      .describe("RISK_WARNING; absent: the client's sentence in the user's language"),
    termsVersion: text.describe('the terms version registration must send as acceptTerms'),
    showCreditScore: z.boolean().describe('SHOW_CREDIT_SCORE: the personal centre shows the score'),
    testClock: z
      .boolean()
      .optional()
      .describe(
        'present (true) only on a server started with TEST_CLOCK=1: /api/test/clock exists',
      ),
  })
  .meta({ id: 'AppInfo' });
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

export const tickRefDto = z
  .object({ seq: z.int(), ts: ms, price: decimal })
  .meta({ id: 'TickRef' });
export const tapeTickDto = tickRefDto
  .extend({ qty: z.int().describe('lots of the product') })
  .meta({ id: 'TapeTick' });
export const fairnessPeriodDto = z
  .object({
    productId: text,
    ...each(ms, 'periodStart', 'periodEnd'),
    commitment: text.describe('SHA-256 of the secret, hex'),
    committedAt: ms.describe(
      "when the commitment was stored (epoch ms): before the period's first tick",
    ),
    model: z
      .object({
        ...each(z.int(), 'version', 'precision', 'tickSize'),
        startPrice: decimal,
        ...each(z.number(), 'annualVol', 'jumpsPerDay', 'typicalLots'),
      })
      .describe("the published model parameters the period's ticks are computed with"),
    start: z
      .object({ seq: z.int(), ts: ms.nullable(), ...each(text, 'logPrice', 'logVol') })
      .nullable()
      .describe(
        "where the period's ticks start from (the last tick before it and the model's state after it); null before its first tick",
      ),
    secret: text.nullable().describe('the 256-bit secret, hex, once revealed; null until then'),
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
    durations: z
      .array(z.object({ seconds: z.int(), rate: decimal }))
      .describe('the duration ladder: seconds and the earnings rate ("0.85" = 85 %)'),
    ...each(money, 'minStake', 'maxStake'),
    last: orNull(tickRefDto),
    stats24h: z
      .object(
        each(decimal, 'open', 'high', 'low', 'last', 'change', 'changePct', 'volume', 'amount'),
      )
      .describe(
        "rolling 24-hour figures: prices at the product's precision, volume in base units, amount in quote",
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
    ref: text.nullable().describe('what moved it, e.g. `deposit:12`, `withdrawal:7`'),
  })
  .meta({ id: 'FundRecord' });
const arrivalDto = z
  .object({
    withinMinutes: z.int().describe('expected at most this many minutes after it is asked for'),
    confirmations: z.int().optional().describe('USDT: network confirmations waited for'),
  })
  .meta({ id: 'Arrival' });
const channelExtras = {
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
        'in the form of `country` (shared/src/bank-account.ts): IBAN, card or account number',
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
    }),
    z.object({ id, type: z.literal('coin'), network, address: text, createdAt: ms }),
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

export const opsKycSubmissionDto = z
  .object({
    id,
    ...ofUser,
    ...each(text, 'name', 'idNumber', 'nationality'),
    ...each(text.describe('the photo: GET /api/uploads/{id}'), 'frontId', 'backId'),
    status: z.enum(['pending', 'verified', 'rejected']),
    ...reviewed,
    sameIdNumber: z
      .array(z.object({ ...ofUser, status: z.enum(['pending', 'verified']) }))
      .describe(
        'other accounts with this ID number (compared normalised) under review or verified, for the operator to weigh (a family sharing a phone, a typo, or one person with several accounts); never refused for it',
      ),
  })
  .meta({ id: 'OpsKycSubmission' });

export const newsSummaryDto = z
  .object({
    id,
    lang: text,
    title: text,
    summary: text.describe('the start of the body, for lists'),
    publishedAt: ms,
  })
  .meta({ id: 'NewsSummary' });
const messageKind = z.enum([...content.systemMessageKinds, 'custom']);
const banner = z.object({
  id,
  ...each(text, 'title', 'subtitle'),
  link: text
    .nullable()
    .describe('an in-app route (`/pages/...`), or null for a banner that only informs'),
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
      retryAfterMs: z
        .int()
        .nonnegative()
        .optional()
        .describe('429 and 503 that pass with time: how long to wait (ms); Retry-After in seconds'),
      requestId: text
        .optional()
        .describe("the request's X-Request-Id, as logged (docs/API.md, Conventions)"),
    }),
  })
  .meta({ id: 'Error' });
export const registeredDto = z.object({ user: userDto }).meta({ id: 'Registered' });
export const loginAnswerDto = z.object({ token: text, user: userDto }).meta({ id: 'LoginAnswer' });
export const candleDto = z
  .object({
    t: ms.describe('the bucket start, epoch ms'),
    ...each(decimal, 'o', 'h', 'l', 'c'),
    v: decimal.describe('volume in base units, a decimal string'),
  })
  .meta({ id: 'Candle' });
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
export const kycStateDto = z
  .object({ status: kycStatus, reason: text.optional(), submittedAt: ms.optional() })
  .meta({ id: 'KycState' });
export const savingsOverviewDto = z
  .object({
    total: money.describe('confirmed + pending, minor units'),
    ...each(money, 'confirmed', 'pending'),
    yesterdayIncome: money.describe(
      'minor units credited at the last cut-off (for the platform day that ended then)',
    ),
    totalIncome: money,
    ...each(money, 'inRemainingToday', 'outRemainingToday'),
    annualRate: decimal.describe('a decimal string: "0.0365" is 3.65 %'),
  })
  .meta({ id: 'SavingsOverview' });
export const savingsRecordDto = z
  .object({
    id,
    type: z.enum(['in', 'out', 'income']),
    amount: money.describe('minor units, always positive: the type says which way it went'),
    day: text.describe(
      'the platform day, YYYY-MM-DD; for income, the day that ended at the cut-off',
    ),
    createdAt: ms.describe('when it happened (income: the cut-off), epoch ms'),
  })
  .meta({ id: 'SavingsRecord' });
export const testClockStateDto = z
  .object({ ...each(ms, 'now', 'nextCutoff') })
  .meta({ id: 'TestClockState' });
export const contentPageDto = z
  .object({
    slug: z.enum(content.pageSlugs),
    lang: text.describe(
      'the language the text is in: the one asked for, else zh-CN, else any there is',
    ),
    title: text,
    body: text.describe(
      'plain text: paragraphs separated by a blank line, `## ` starts a heading line and `- ` a list item',
    ),
    updatedAt: ms,
  })
  .meta({ id: 'ContentPage' });
export const newsItemDto = newsSummaryDto.extend({ body: text }).meta({ id: 'NewsItem' });
export const homeContentDto = z
  .object({
    banners: z.array(banner),
    highlights: z.array(highlight),
    news: z.array(newsSummaryDto),
    newsCursor: text
      .nullable()
      .describe('the cursor to go on with beyond `news`; null when there is no more news'),
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
    // The operator's text for `custom`; for the other kinds a zh-CN rendering, for readers that do
    // not know the kind (the client words known kinds itself).
    ...each(text, 'title', 'body'),
    broadcast: z.boolean().describe('sent to every user rather than to this one'),
    read: z.boolean(),
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

/** Issue 20: a named operator of the console (never its password or second-factor secret). */
export const operatorDto = z
  .object({
    id,
    name: text,
    role: z.enum(['reviewer', 'support', 'admin']),
    createdAt: ms,
    disabled: z.boolean(),
  })
  .meta({ id: 'Operator' });

/** GET /api/ops/operators: an operator with the count of their live sessions. */
export const operatorListItemDto = operatorDto
  .extend({ liveSessions: z.int().describe('sessions neither ended nor expired') })
  .meta({ id: 'OperatorListItem' });

/** POST /api/ops/operators: the new operator and, once only, what they sign in with. */
export const newOperatorDto = z
  .object({
    operator: operatorDto,
    password: text.describe('generated; shown once, stored only as an argon2id hash'),
    totpSecret: text.describe('base32 TOTP secret (RFC 6238, 30 s, 6 digits); shown once'),
    otpauthUri: text.describe('the same secret as an otpauth:// URI, for a QR code'),
  })
  .meta({ id: 'NewOperator' });

export const operatorSessionDto = z
  .object({ token: text, operator: operatorDto, expiresAt: ms })
  .meta({ id: 'OperatorSession' });

/** GET /api/ops/me: who the bearer is; the service token is `service`, with no id. */
export const operatorCallerDto = z
  .object({
    id: id.nullable(),
    name: text,
    role: z.enum(['reviewer', 'support', 'admin', 'service']),
  })
  .meta({ id: 'OperatorCaller' });

/** One line of the append-only audit log of operator actions. */
export const auditLineDto = z
  .object({
    id,
    at: ms,
    operator: text.describe(
      "the operator's name; `service` for the service token; `unknown` for a sign-in under a name no operator has (the name tried is in `target`)",
    ),
    operatorId: id.nullable(),
    role: text,
    action: text.describe('method and route: `POST /api/ops/deposits/:id/approve`'),
    target: text.nullable().describe('what it acted on: `id=12`, `user=7`'),
    before: z.unknown().describe('the state before, where the action says it'),
    after: z.unknown().describe('the answer, or the state after'),
    reason: text.nullable(),
    address: text.nullable(),
    status: z.int(),
  })
  .meta({ id: 'AuditLine' });

/** One line of the append-only access log: an operator read a user's personal data. */
export const accessLineDto = z
  .object({
    id,
    at: ms,
    operator: text.describe("the operator's name, or `service` for the service token"),
    operatorId: id.nullable(),
    role: text,
    kind: z
      .enum(['profile', 'review_context', 'upload'])
      .describe(
        'profile: GET /api/ops/users/{id}; review_context: GET /api/ops/users/{id}/review-context; upload: GET /api/uploads/{id} (an ID photo, a transfer screenshot)',
      ),
    userId: id.describe('whose data: the user, or the owner of the upload'),
    uploadId: text.nullable(),
    address: text,
  })
  .meta({ id: 'AccessLine' });

/** A user as support finds them (GET /api/ops/users). */
export const opsUserDto = z
  .object({
    id,
    ...each(text, 'account', 'phone', 'nickname'),
    creditScore: z.int(),
    createdAt: ms,
    frozen: z.boolean(),
    frozenReason: text.nullable(),
    kycStatus,
  })
  .meta({ id: 'OpsUser' });

/** GET /api/ops/users/:id: one user with what support needs to see at a glance. */
export const opsUserProfileDto = z
  .object({
    user: opsUserDto,
    balances: accountSummaryDto,
    orders: z.array(orderDto).describe('the latest 20 real orders'),
    deposits: z.array(depositDto).describe('the latest 10'),
    withdrawals: z.array(withdrawalDto).describe('the latest 10'),
    ledger: z.array(fundRecordDto).describe("the latest 20 entries of the user's real account"),
    sessions: z.array(
      z.object({
        id: text.describe("the first 12 characters of the session token's hash"),
        ...each(ms, 'createdAt', 'lastSeenAt', 'expiresAt'),
      }),
    ),
  })
  .meta({ id: 'OpsUserProfile' });

/**
 * GET /api/ops/users/:id/review-context: what a reviewer weighs beside a deposit or a
 * withdrawal (the user's identity state and freeze, balances, recent deposits, withdrawals and
 * ledger entries), without the rest of the profile (support's).
 */
export const opsReviewContextDto = z
  .object({
    user: opsUserDto,
    balances: accountSummaryDto,
    deposits: z.array(depositDto).describe('the latest 10'),
    withdrawals: z.array(withdrawalDto).describe('the latest 5'),
    ledger: z.array(fundRecordDto).describe('the latest 10 entries of the real account'),
  })
  .meta({ id: 'OpsReviewContext' });

const exposureSide = z.object({
  stake: money.describe('open real stakes in this direction'),
  pays: money.describe('what the house pays if this direction wins'),
});

/** GET /api/ops/dashboard: the house's live real-money position and the review backlog. */
export const opsDashboardDto = z
  .object({
    pending: z.object({ ...each(z.int(), 'deposits', 'withdrawals', 'kyc') }),
    exposure: z.array(z.object({ productId: text, up: exposureSide, down: exposureSide })),
    placementsLastMinute: z.int(),
    housePnlToday: money.describe(
      'Σ(stake − payout) of real orders settled since 00:00 of the platform day',
    ),
    feed: z
      .array(
        z.object({
          productId: text,
          largestGapMs: z
            .int()
            .nullable()
            .describe(
              'the largest gap between its ticks over the last hour while open (the leading simulator); null: none measured',
            ),
          settled: z.int().describe('orders settled in the last hour, real and practice'),
          voids: z
            .object({ ...each(z.int(), 'FEED_STALE', 'NO_ENTRY_TICK') })
            .describe('of those, void with the stake refunded, by reason'),
        }),
      )
      .describe("each product's feed rhythm and void count over the last hour"),
    live: z
      .object({
        gateways: z.array(
          z.object({
            id: text.describe('host:pid of the gateway process'),
            sockets: z.int(),
            ticksPerSecond: z.number(),
          }),
        ),
        sockets: z.int().describe('connected sockets over every reporting gateway'),
        ticksPerSecond: z
          .number()
          .nullable()
          .describe('ticks per second a gateway hears (the highest); null: no gateway reports'),
        settlement: z
          .object({
            settledLastMinute: z.int(),
            lagP50Ms: z.number(),
            lagP99Ms: z.number().describe('the worst p99 over the settling processes'),
          })
          .nullable()
          .describe('null: no settling process reports'),
        processes: z.int().describe('processes that reported in the last 10 s'),
      })
      .describe('what the running processes report over the bus every 2 s'),
  })
  .meta({ id: 'OpsDashboard' });
