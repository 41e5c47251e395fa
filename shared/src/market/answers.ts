import { z } from 'zod';
import { decimal, each, money, ms, orNull, text } from '../contract/primitives';

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
    earlyClose: z
      .object({
        annualVol: z
          .number()
          .describe(
            "the model's published annual volatility σ (0.6 = 60 %), the sell value's input",
          ),
        spreadBp: z.int().describe('the published spread taken off the sell value, basis points'),
        closesBeforeExpiryMs: z.int().describe('no sell in this last stretch before expiry, ms'),
      })
      .describe('the early-close ("sell") terms: docs/FAIRNESS.md, Early close'),
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
export const candleDto = z
  .object({
    t: ms.describe('the bucket start, epoch ms'),
    ...each(decimal, 'o', 'h', 'l', 'c'),
    v: decimal.describe('volume in base units, a decimal string'),
  })
  .meta({ id: 'Candle' });
/** GET/PUT/DELETE /api/me/favourites: the user's favourite product ids, in the order marked. */
export const favouritesDto = z
  .object({ products: z.array(text).describe('product ids, the first marked first') })
  .meta({ id: 'Favourites' });
