import { Router } from 'express';
import * as endpoints from '@shared/drawings/endpoints';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { serve } from '@server/platform/http/serve';
import type { AuthService } from '../auth/auth.service';
import type { DrawingsService } from './drawings.service';

/** /api/drawings: the signed-in user's chart drawings, the same on every device. */
export function drawingsRoutes(auth: AuthService, drawings: DrawingsService): Router {
  const r = Router();
  const user = requireUser(auth);
  const userId = (locals: Record<string, unknown>) => sessionOf(locals).userId;
  serve(r, endpoints.drawings, user, ({ query }, { res }) =>
    drawings.list(userId(res.locals), query.product),
  );
  serve(r, endpoints.addDrawing, user, ({ body }, { res }) =>
    drawings.add(userId(res.locals), body),
  );
  serve(r, endpoints.removeDrawing, user, ({ params }, { res }) =>
    drawings.remove(userId(res.locals), params.id),
  );
  serve(r, endpoints.clearDrawings, user, ({ query }, { res }) =>
    drawings.clear(userId(res.locals), query.product),
  );
  return r;
}
