import { z } from 'zod';
import { orderDto } from '../orders/answers';
import { each, id, kycStatus, money, ms, text } from '../contract/primitives';
import { accountSummaryDto, depositDto, fundRecordDto, withdrawalDto } from '../wallet/answers';
import { opsTwoFactorDto } from '../security/answers';

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
        device: text.describe('device and browser, from the user agent ("Chrome · Android")'),
        address: text.nullable().describe('the address it signed in from'),
        ...each(ms, 'createdAt', 'lastSeenAt', 'expiresAt'),
      }),
    ),
    twoFactor: opsTwoFactorDto,
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
export const exposureSide = z.object({
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
    earlyCloses: z
      .object({
        count: z.int().describe('real orders sold before expiry since 00:00 of the platform day'),
        housePnlToday: money.describe(
          "Σ(stake − the sale's value) of those: part of housePnlToday",
        ),
      })
      .describe('early closes ("sell", docs/FAIRNESS.md, Early close) today, real money'),
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
