import type { Db } from '@infra/db';
import { DRAWINGS_PER_PRODUCT, type NewDrawing } from '@shared/drawings/model';
import { conflict, notFound, validationFailed } from '@server/platform/http/errors';
import type { UserEvents } from '@server/platform/user-events';
import type { MarketService } from '../market/market.service';
import * as repo from './drawings.repo';

/** A price at exactly `precision` decimals; null when it has more (finer than the product's). */
export function atPrecision(price: string, precision: number): string | null {
  const [whole = '0', frac = ''] = price.split('.');
  if (frac.length > precision && /[1-9]/.test(frac.slice(precision))) return null;
  const digits = frac.slice(0, precision).padEnd(precision, '0');
  const intPart = whole.replace(/^0+(?=\d)/, '');
  return precision > 0 ? `${intPart}.${digits}` : intPart;
}

/**
 * Chart drawings, per user and product on the server (DECISIONS, Chart drawings, kept on the
 * server per user and product): every change is one statement or one transaction, and once
 * committed a `drawings` event tells the user's other devices to read that product's again.
 */
export function createDrawingsService(d: {
  db: Db;
  market: Pick<MarketService, 'spec'>;
  userEvents: Pick<UserEvents, 'emit'>;
}) {
  /** The catalogue's product (404 NOT_FOUND for an unknown one). */
  const productOf = (id: string) => d.market.spec(id);
  const changed = (userId: number, product: string) =>
    d.userEvents.emit(userId, 'drawings', { product });
  const present = (product: string, precision: number) => (row: repo.DrawingRow) => ({
    ...row,
    product,
    points: row.points.map((p) => ({ time: p.time, price: atPrecision(p.price, precision)! })),
  });

  return {
    async list(userId: number, productId: string) {
      const { id, precision } = productOf(productId);
      const rows = await repo.drawingsOf(d.db, userId, id);
      return { items: rows.map(present(id, precision)) };
    },

    /**
     * Adds a drawing: prices at the product's decimals at most, a trend's points the earlier
     * first. 409 DRAWING_LIMIT past the cap, 409 DRAWING_EXISTS for the same one again.
     */
    async add(userId: number, body: NewDrawing) {
      const { id, precision } = productOf(body.product);
      const points = [...body.points]
        .sort((a, b) => a.time - b.time)
        .map((p, i) => {
          const price = atPrecision(p.price, precision);
          if (price === null)
            throw validationFailed(`points.${i}.price`, `at most ${precision} decimals for ${id}`);
          return { time: p.time, price };
        });
      const row = await d.db.transaction(async (tx) => {
        await repo.lockProduct(tx, userId, id);
        if ((await repo.countOf(tx, userId, id)) >= DRAWINGS_PER_PRODUCT)
          throw conflict(
            'DRAWING_LIMIT',
            `At most ${DRAWINGS_PER_PRODUCT} drawings per product; remove one first`,
          );
        const added = await repo.insertDrawing(tx, userId, id, body.kind, points);
        if (!added) throw conflict('DRAWING_EXISTS', 'This drawing is there already');
        return added;
      });
      changed(userId, id);
      return present(id, precision)(row);
    },

    /** Removes one of the user's drawings (404 for someone else's, or one already gone). */
    async remove(userId: number, drawingId: string): Promise<void> {
      const product = await repo.deleteDrawing(d.db, userId, drawingId);
      if (product === null) throw notFound('No such drawing');
      changed(userId, product);
    },

    /** Removes all the user's drawings on a product (none: no change, no event). */
    async clear(userId: number, productId: string): Promise<void> {
      const { id } = productOf(productId);
      if ((await repo.deleteAll(d.db, userId, id)) > 0) changed(userId, id);
    },
  };
}

export type DrawingsService = ReturnType<typeof createDrawingsService>;
