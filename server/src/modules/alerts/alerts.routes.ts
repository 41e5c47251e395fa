import { Router } from 'express';
import * as endpoints from '@shared/alerts/endpoints';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { serve } from '@server/platform/http/serve';
import type { AuthService } from '../auth/auth.service';
import type { AlertsService } from './alerts.service';

/** /api/alerts (shared/src/alerts/endpoints.ts): the signed-in user's price alerts. Thin. */
export function alertsRoutes(auth: AuthService, alerts: AlertsService): Router {
  const r = Router();
  const user = requireUser(auth);
  const userId = (locals: Record<string, unknown>) => sessionOf(locals).userId;
  serve(r, endpoints.alerts, user, async ({ query }, { res }) =>
    alerts.list(userId(res.locals), query.product),
  );
  serve(r, endpoints.createAlert, user, async ({ body }, { res }) =>
    alerts.create(userId(res.locals), body),
  );
  serve(r, endpoints.deleteAlert, user, async ({ params }, { res }) => {
    await alerts.remove(userId(res.locals), params.id);
  });
  return r;
}
