import { z } from 'zod';

export const ms = z.int().describe('epoch milliseconds');
export const money = z.int().describe('minor units: 1050 is 10.50');
export const decimal = z.string().describe('a decimal string: "67012.35", "0.85"');
export const id = z.string().describe('a row id (digits)');
export const text = z.string();
/** One schema under several names: `...each(money, 'min', 'max')`. */
export const each = <K extends string, S extends z.ZodType>(schema: S, ...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, schema])) as Record<K, S>;
/**
 * A named shape or null. Not `.nullable()`: zod-to-openapi would mark the named component itself
 * nullable and refer to it without the null.
 */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);
export const kycStatus = z.enum(['none', 'pending', 'verified', 'rejected']);
export const network = z.enum(['TRC20', 'ERC20']);
/** A reviewed item's common fields. */
export const reviewed = { reason: text.optional(), createdAt: ms, reviewedAt: ms.optional() };
export const ofUser = { userId: id, userAccount: text };
/** A page of a list (`?limit=&cursor=`): the items, newest first, and the next page's cursor. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    nextCursor: z.string().nullable().describe('null on the last page'),
  });
