/**
 * The answers of the REST API as zod schemas: what GET /api/openapi.json describes (each `id` is a
 * component of it) and what a route declares it answers (server/src/platform/http/route.ts).
 * Requests are described by the schemas the routes parse with (*.schemas.ts, accounts.ts, …).
 *
 * The schemas live by feature under dto/; this file gathers them. The types the server and the
 * client use for these answers are inferred from them (`export type Order = z.infer<typeof
 * orderDto>` in orders.ts, …), so a field is added, documented or changed in its feature's file
 * and nowhere else (a field's `.describe` is its documentation, in the document too). Those
 * modules import the dto files as types only; the dto files take value lists from leaf modules
 * (errors.ts, wallet.values.ts, content.values.ts), so no import goes round in a circle.
 */
export * from './dto/primitives';
export * from './dto/accounts';
export * from './dto/market';
export * from './dto/orders';
export * from './dto/wallet';
export * from './dto/savings';
export * from './dto/content';
export * from './dto/errors';
export * from './dto/operators';
