import { Router } from 'express';
import { z } from 'zod';
import * as content from '@shared/content';
import { errorCodes, type ErrorCode } from '@shared/errors';
import { depositChannels, transferKinds } from '@shared/wallet';
import { endpoints, type Endpoint, type Success } from './openapi-endpoints';

/**
 * GET /api/openapi.json: the contract (shared API.md and docs/API.md) as OpenAPI 3.1. Requests are
 * described by the zod schemas the routes validate with (openapi-endpoints.ts); answers by the zod
 * shapes below, which a type test (openapi.test.ts) holds to their types in shared/.
 */

type JsonSchema = z.core.JSONSchema.JSONSchema;

const ms = z.int().describe('epoch milliseconds');
const money = z.int().describe('minor units: 1050 is 10.50');
const decimal = z.string().describe('a decimal string: "67012.35", "0.85"');
const id = z.string().describe('a row id (digits)');
const text = z.string();
/** One schema under several names: `...each(money, 'min', 'max')`. */
const each = <K extends string, S extends z.ZodType>(schema: S, ...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, schema])) as Record<K, S>;
const kycStatus = z.enum(['none', 'pending', 'verified', 'rejected']);
const network = z.enum(['TRC20', 'ERC20']);
/** A reviewed item's common fields. */
const reviewed = { reason: text.optional(), createdAt: ms, reviewedAt: ms.optional() };
const ofUser = { userId: id, userAccount: text };

const user = z.object({
  id,
  ...each(text, 'account', 'phone', 'nickname', 'inviteCode'),
  creditScore: z.int(),
  kyc: z.object({ status: kycStatus, reason: text.optional() }),
  createdAt: ms,
});
const appInfo = z.object({
  ...each(text, 'name', 'currency', 'serviceUrl'),
  ...each(z.array(text), 'depositChannels', 'languages'),
  testClock: z.boolean().optional(),
});
const accountSummary = z.object({
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
});

const tickRef = z.object({ seq: z.int(), ts: ms, price: decimal });
const tapeTick = tickRef.extend({ qty: z.int().describe('lots') });
const fairnessPeriod = z.object({
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
});
const productDto = z.object({
  ...each(text, 'id', 'name'),
  category: z.enum(['crypto', 'forex', 'metals', 'energy', 'index']),
  precision: z.int(),
  status: z.enum(['open', 'closed', 'maintenance']),
  opensAt: ms.optional(),
  durations: z.array(z.object({ seconds: z.int(), rate: decimal })),
  ...each(money, 'minStake', 'maxStake'),
  last: tickRef.nullable(),
  stats24h: z.object(
    each(decimal, 'open', 'high', 'low', 'last', 'change', 'changePct', 'volume', 'amount'),
  ),
});
const order = z.object({
  id,
  mode: z.enum(['real', 'practice']).describe('practice orders stake practice money only'),
  productId: text,
  direction: z.enum(['up', 'down']),
  amount: money,
  duration: z.int().describe('seconds'),
  rate: decimal,
  status: z.enum(['open', 'won', 'lost', 'draw', 'void']),
  entry: tickRef
    .nullable()
    .describe(
      'the first tick recorded after acceptance; null until it is recorded, and on a NO_ENTRY_TICK void',
    ),
  exit: tickRef.nullable(),
  ...each(money.nullable(), 'payout', 'pnl'),
  ...each(ms, 'createdAt', 'expiresAt'),
  settledAt: ms.nullable(),
  voidReason: text.nullable().describe('FEED_STALE or NO_ENTRY_TICK when void'),
});

const fundRecord = z.object({
  id,
  type: z.enum(transferKinds),
  amount: money.describe('signed: credits positive, debits negative'),
  balanceAfter: money,
  createdAt: ms,
  ref: text.nullable(),
});
const depositChannel = z.discriminatedUnion('channel', [
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
]);
const deposit = z.object({
  id,
  channel: z.enum(depositChannels),
  amount: money.describe('what is (or will be) credited'),
  quantity: z.int().optional().describe('USDT channels: USDT in minor units'),
  rate: decimal.optional(),
  remark: text.optional(),
  screenshotId: text.describe('GET /api/uploads/{id}'),
  status: z.enum(['pending', 'approved', 'rejected']),
  ...reviewed,
});
const opsDeposit = deposit.extend({
  ...ofUser,
  ...each(text.optional(), 'payerBank', 'payerCard', 'payerName'),
});
const withdrawalAccount = z.discriminatedUnion('type', [
  z.object({
    id,
    type: z.literal('bank'),
    ...each(text, 'holderName', 'nationality', 'bankName', 'cardNumber'),
    branch: text.optional().describe('where the country addresses transfers to a branch (JP)'),
    bankAddress: text.optional(),
    createdAt: ms,
  }),
  z.object({ id, type: z.literal('coin'), network, address: text, createdAt: ms }),
]);
const withdrawal = z.object({
  id,
  accountId: id,
  account: withdrawalAccount,
  amount: money,
  status: z.enum(['pending', 'success', 'failed']),
  ...reviewed,
});

const opsKyc = z.object({
  id,
  ...ofUser,
  ...each(text, 'name', 'idNumber', 'nationality', 'frontId', 'backId'),
  status: z.enum(['pending', 'verified', 'rejected']),
  ...reviewed,
  sameIdNumber: z
    .array(z.object({ ...ofUser, status: z.enum(['pending', 'verified']) }))
    .describe('other accounts with this ID number under review or verified'),
});

const newsSummary = z.object({
  id,
  lang: text,
  ...each(text, 'title', 'summary'),
  publishedAt: ms,
});
const messageKind = z.enum([...content.systemMessageKinds, 'custom']);
const banner = z.object({
  id,
  ...each(text, 'title', 'subtitle'),
  link: text.nullable(),
  theme: z.enum(content.bannerThemes),
});
const highlight = z.object({ id, icon: z.enum(content.highlightIcons), title: text, body: text });

/** The named answer shapes: components/schemas, named by the endpoint table. */
export const answerShapes = {
  Error: z.object({
    error: z.object({
      code: z.enum(errorCodes),
      message: text,
      field: text.optional(),
      requestId: text.optional(),
    }),
  }),
  User: user,
  Registered: z.object({ user }),
  LoginAnswer: z.object({ token: text, user }),
  AppInfo: appInfo,
  AccountSummary: accountSummary,
  TickRef: tickRef,
  TapeTick: tapeTick,
  FairnessPeriod: fairnessPeriod,
  Product: productDto,
  Candle: z.object({ t: ms, ...each(decimal, 'o', 'h', 'l', 'c', 'v') }),
  Order: order,
  FundRecord: fundRecord,
  DepositChannel: depositChannel,
  Deposit: deposit,
  OpsDeposit: opsDeposit,
  WithdrawalAccount: withdrawalAccount,
  Withdrawal: withdrawal,
  OpsWithdrawal: withdrawal.extend(ofUser),
  WithdrawalRules: z.object({ ...each(money, 'min', 'max'), requiresKyc: z.boolean() }),
  LedgerCheck: z.object({ ok: z.boolean(), problems: z.array(text) }),
  KycState: z.object({ status: kycStatus, reason: text.optional(), submittedAt: ms.optional() }),
  OpsKycSubmission: opsKyc,
  SavingsOverview: z.object({
    ...each(money, 'total', 'confirmed', 'pending', 'yesterdayIncome', 'totalIncome'),
    ...each(money, 'inRemainingToday', 'outRemainingToday'),
    annualRate: decimal,
  }),
  SavingsRecord: z.object({
    id,
    type: z.enum(['in', 'out', 'income']),
    amount: money,
    day: text.describe('the platform day, YYYY-MM-DD'),
    createdAt: ms,
  }),
  TestClockState: z.object({ ...each(ms, 'now', 'nextCutoff') }),
  ContentPage: z.object({
    slug: z.enum(content.pageSlugs),
    ...each(text, 'lang', 'title', 'body'),
    updatedAt: ms,
  }),
  NewsSummary: newsSummary,
  NewsItem: newsSummary.extend({ body: text }),
  HomeContent: z.object({
    banners: z.array(banner),
    highlights: z.array(highlight),
    news: z.array(newsSummary),
    newsCursor: text.nullable(),
  }),
  Message: z.object({
    id,
    kind: messageKind,
    params: z.object({ amount: money.optional(), reason: text.optional(), ref: text.optional() }),
    ...each(text, 'title', 'body'),
    ...each(z.boolean(), 'broadcast', 'read'),
    createdAt: ms,
  }),
  OpsMessage: z.object({
    id,
    userId: id.nullable(),
    kind: messageKind,
    ...each(text, 'title', 'body'),
    createdAt: ms,
  }),
} satisfies Record<string, z.ZodType>;
export type DtoName = keyof typeof answerShapes;

const ref = (name: string, kind = 'schemas') => ({ $ref: `#/components/${kind}/${name}` });
const errorContent = { 'application/json': { schema: ref('Error') } };

/** Drops the ±2^53 bounds zod gives every integer. */
const tidy = ({ jsonSchema: s }: { jsonSchema: JsonSchema }) => {
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
};
// `input`: coerced and transformed fields show what may be sent; objects stay open to new fields.
const options = { io: 'input', override: tidy } as const;

/** A zod schema as JSON Schema 2020-12, the dialect of OpenAPI 3.1. */
function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, options);
  return rest;
}

/** The named answers, each a component; those that contain another refer to it. */
function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries(answerShapes)) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, { ...options, uri: (name) => ref(name).$ref });
  return Object.fromEntries(
    Object.entries(schemas).map(([name, { $schema: _, $id: __, ...rest }]) => [name, rest]),
  );
}

function success({ status, body, list, media, description }: Success) {
  description ??= status === 201 ? 'Created' : body ? 'OK' : 'Done, no body';
  if (media) return { description, content: { [media]: {} } };
  if (!body) return { description };
  const one = typeof body === 'string' ? ref(body) : jsonSchema(body);
  const items = { type: 'array', items: one };
  const nextCursor = { type: ['string', 'null'], description: 'null on the last page' };
  const required = ['items', 'nextCursor'];
  const page = { type: 'object', properties: { items, nextCursor }, required };
  const schema = { one, array: items, page }[list ?? 'one'];
  return { description, content: { 'application/json': { schema } } };
}

/** Path or query parameters: the properties of an object schema. */
function parameters(where: 'path' | 'query', schema: z.ZodType | undefined) {
  const { properties = {}, required = [] } = schema ? jsonSchema(schema) : {};
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.includes(name),
    schema: s,
  }));
}

function requestBody({ body, form }: Endpoint) {
  if (body)
    return { required: true, content: { 'application/json': { schema: jsonSchema(body) } } };
  if (!form) return undefined;
  const image = { type: 'string', contentMediaType: 'image/*', description: 'JPEG, PNG or WebP' };
  const files = {
    type: 'object',
    properties: Object.fromEntries(form.files.map((f) => [f, image])),
    required: form.files,
  };
  const schema = { allOf: [jsonSchema(form.fields), files] };
  return { required: true, content: { 'multipart/form-data': { schema } } };
}

/** The error answers by status, each naming its codes: the table's and those every such call has. */
function errors(e: Endpoint) {
  const codes = new Map<number, Set<ErrorCode>>();
  const add = (status: number, code: ErrorCode) =>
    codes.set(status, (codes.get(status) ?? new Set()).add(code));
  if (e.params ?? e.query ?? e.body ?? e.form) add(400, 'VALIDATION_FAILED');
  if (e.form) add(400, 'UPLOAD_INVALID');
  if (e.form) add(413, 'UPLOAD_TOO_LARGE');
  // The JSON parser's refusals (refusals.ts): over 64 kB; a charset or Content-Encoding it lacks.
  if (e.body) add(413, 'PAYLOAD_TOO_LARGE');
  if (e.body) add(415, 'UNSUPPORTED_MEDIA_TYPE');
  if (e.auth !== 'anyone') add(401, 'UNAUTHENTICATED');
  if (e.auth === 'operator') add(403, 'FORBIDDEN');
  if (e.idempotent) add(422, 'IDEMPOTENCY_MISMATCH');
  for (const [status, list = []] of Object.entries(e.errors ?? {}))
    list.forEach((code) => add(Number(status), code));
  const answer = (s: Set<ErrorCode>) => ({ description: [...s].join(', '), content: errorContent });
  return Object.fromEntries([...codes].map(([status, set]) => [status, answer(set)]));
}

const security: Record<Endpoint['auth'], object[] | undefined> = {
  anyone: undefined,
  user: [{ bearer: [] }],
  operator: [{ operator: [] }],
  userOrOperator: [{ bearer: [] }, { operator: [] }],
};

function operation(operationId: string, e: Endpoint) {
  const params: object[] = [...parameters('path', e.params), ...parameters('query', e.query)];
  // A path parameter that no schema describes (`/api/uploads/{id}`) is a string.
  for (const [, name] of e.route.matchAll(/\{(\w+)\}/g))
    if (!e.params) params.unshift({ name, in: 'path', required: true, schema: { type: 'string' } });
  if (e.idempotent) params.push(ref('IdempotencyKey', 'parameters'));
  const body = requestBody(e);
  return {
    operationId,
    summary: e.summary,
    tags: [e.tag],
    ...(security[e.auth] && { security: security[e.auth] }),
    ...(params.length > 0 && { parameters: params }),
    ...(body && { requestBody: body }),
    responses: {
      [e.ok.status]: success(e.ok),
      ...(e.also && { [e.also.status]: success(e.also) }),
      ...errors(e),
      default: ref('Error', 'responses'),
    },
  };
}

function build() {
  const paths: Record<string, Record<string, object>> = {};
  for (const [operationId, e] of Object.entries(endpoints)) {
    const [method = '', path = ''] = e.route.split(' ');
    (paths[path] ??= {})[method.toLowerCase()] = operation(operationId, e);
  }
  const bearer = (description: string) => ({ type: 'http', scheme: 'bearer', description });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Trade API',
      version: '1',
      description:
        'Money: integers in minor units (1050 is 10.50). Prices and rates: decimal strings. ' +
        'Times: epoch milliseconds. Lists: `limit` (default 20, at most 100) and `cursor`.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(Object.values(endpoints).map((e) => e.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: componentSchemas(),
      responses: { Error: { description: 'An error (500: INTERNAL)', content: errorContent } },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          description: 'A repeat with the same body replays the first answer; another body: 422',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
        },
      },
      securitySchemes: {
        bearer: bearer('A user session token, from POST /api/auth/login'),
        operator: bearer("The server's OPERATOR_TOKEN"),
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof build>;
let built: OpenApiDocument | undefined;

/** The OpenAPI 3.1 description of the API, built on first use. */
export function openApiDocument(): OpenApiDocument {
  return (built ??= build());
}

/** GET /openapi.json (mounted under /api): the document, to anyone, cacheable for 5 minutes. */
export function openApiRoutes(): Router {
  // Built here, so a schema zod cannot convert fails the start rather than a request.
  const body = JSON.stringify(openApiDocument());
  const r = Router();
  r.get('/openapi.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').type('json').send(body);
  });
  return r;
}
