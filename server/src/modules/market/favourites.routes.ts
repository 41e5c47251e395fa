import { Router } from 'express';
import * as endpoints from '@shared/market/endpoints';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { serve } from '@server/platform/http/serve';
import type { AuthService } from '../auth/auth.service';
import type { FavouritesService } from './favourites.service';

/** /api/me/favourites: the signed-in user's favourite products, the same on every device. */
export function favouritesRoutes(auth: AuthService, favourites: FavouritesService): Router {
  const r = Router();
  const user = requireUser(auth);
  const userId = (locals: Record<string, unknown>) => sessionOf(locals).userId;
  serve(r, endpoints.favourites, user, async (_input, { res }) => ({
    products: await favourites.list(userId(res.locals)),
  }));
  serve(r, endpoints.addFavourite, user, async ({ params }, { res }) => ({
    products: await favourites.add(userId(res.locals), params.id),
  }));
  serve(r, endpoints.removeFavourite, user, async ({ params }, { res }) => ({
    products: await favourites.remove(userId(res.locals), params.id),
  }));
  return r;
}
