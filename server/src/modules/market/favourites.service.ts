import type { Db } from '@infra/db';
import type { MarketService } from './market.service';
import * as repo from './favourites.repo';

/**
 * Favourite products, per user on the server (issue 18): the same on every device and after a
 * reinstall. Each change answers the whole list, so a client replaces what it shows.
 */
export function createFavouritesService(d: { db: Db; market: Pick<MarketService, 'spec'> }) {
  // Products that left the catalogue stay stored (they may come back) but are not listed.
  const list = async (userId: number) =>
    (await repo.favouritesOf(d.db, userId)).filter((id) => {
      try {
        d.market.spec(id);
        return true;
      } catch {
        return false;
      }
    });
  return {
    list,
    /** Marks `productId` (404 NOT_FOUND for a product not in the catalogue). */
    async add(userId: number, productId: string): Promise<string[]> {
      const { id } = d.market.spec(productId);
      await repo.addFavourite(d.db, userId, id);
      return list(userId);
    },
    /** Unmarks `productId` (404 NOT_FOUND for a product not in the catalogue, as `add`). */
    async remove(userId: number, productId: string): Promise<string[]> {
      const { id } = d.market.spec(productId);
      await repo.removeFavourite(d.db, userId, id);
      return list(userId);
    },
  };
}

export type FavouritesService = ReturnType<typeof createFavouritesService>;
