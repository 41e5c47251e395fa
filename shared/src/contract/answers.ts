/**
 * The answers of the REST API as zod schemas: what GET /api/openapi.json describes (each `id` is a
 * component of it) and what a route declares it answers (server/src/platform/http/route.ts).
 * Requests are described by the schemas the routes parse with (<feature>/requests.ts, <feature>/model.ts).
 *
 * The schemas live in each feature's answers.ts; this file gathers them. The types the server and the
 * client use for these answers are inferred from them (`export type Order = z.infer<typeof
 * orderDto>` in orders/model.ts, …), so a field is added, documented or changed in its feature's file
 * and nowhere else (a field's `.describe` is its documentation, in the document too). Those
 * modules import the answers files as types only; those take value lists from leaf modules
 * (errors.ts, wallet/values.ts, content/values.ts), so no import goes round in a circle.
 */
export * from './primitives';
export * from '../accounts/answers';
export * from '../market/answers';
export * from '../orders/answers';
export * from '../wallet/answers';
export * from '../savings/answers';
export * from '../content/answers';
export * from '../alerts/answers';
export * from '../drawings/answers';
export * from '../security/answers';
export * from './error-body';
export * from '../operators/answers';
