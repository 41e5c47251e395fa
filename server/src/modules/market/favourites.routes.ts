import { Router } from 'express';
import { favouritesDto } from '@shared/dto';
import { productIdParam } from '@shared/market.schemas';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { declare } from '@server/platform/http/route';
import { parseOrThrow } from '@server/platform/http/validate';
import type { AuthService } from '../auth/auth.service';
import type { FavouritesService } from './favourites.service';

/** /api/me/favourites: the signed-in user's favourite products, the same on every device. */
export function favouritesRoutes(auth: AuthService, favourites: FavouritesService): Router {
  const r = Router();
  const base = { tag: 'Market', auth: requireUser(auth) } as const;
  declare(
    r,
    {
      ...base,
      method: 'get',
      path: '/me/favourites',
      operationId: 'favourites',
      summary: "The user's favourite products",
      responses: { 200: favouritesDto },
    },
    async (_req, res) => {
      res.json({ products: await favourites.list(sessionOf(res.locals).userId) });
    },
  );
  declare(
    r,
    {
      ...base,
      method: 'put',
      path: '/me/favourites/:id',
      operationId: 'addFavourite',
      summary: 'Mark a product as a favourite (again: no change)',
      params: productIdParam,
      responses: { 200: favouritesDto },
      errors: { 404: ['NOT_FOUND'] },
    },
    async (req, res) => {
      const { id } = parseOrThrow(productIdParam, req.params);
      res.json({ products: await favourites.add(sessionOf(res.locals).userId, id) });
    },
  );
  declare(
    r,
    {
      ...base,
      method: 'delete',
      path: '/me/favourites/:id',
      operationId: 'removeFavourite',
      summary: 'Unmark a favourite (one not marked: no change)',
      params: productIdParam,
      responses: { 200: favouritesDto },
      errors: { 404: ['NOT_FOUND'] },
    },
    async (req, res) => {
      const { id } = parseOrThrow(productIdParam, req.params);
      res.json({ products: await favourites.remove(sessionOf(res.locals).userId, id) });
    },
  );
  return r;
}
