import { Router } from 'express';
import { z } from 'zod';
import { shuttingDown } from '../lifecycle';
import { declare } from './route';

const readiness = z.object({
  ok: z.boolean(),
  checks: z.record(z.string(), z.boolean()),
  degraded: z.array(z.string()).optional(),
  shuttingDown: z.literal(true).optional(),
});

export type ReadinessCheck = () => Promise<boolean> | boolean;

/**
 * `/healthz`: the process answers. `/readyz`: every dependency in `checks` answers (503 naming
 * the failing ones). `shown` are dependencies reported under `degraded` without failing
 * readiness: the process still serves without them (a gateway without its api still serves
 * market data). From a stop signal on, `/readyz` answers 503 `shuttingDown: true` whatever the
 * checks say, while the process still serves (lifecycle.ts, the drain window).
 */
export function healthRoutes(
  checks: Record<string, ReadinessCheck>,
  shown: Record<string, ReadinessCheck> = {},
): Router {
  const router = Router();
  const service = { base: '', tag: 'Service', method: 'get' } as const;
  declare(
    router,
    {
      ...service,
      path: '/healthz',
      operationId: 'health',
      summary: 'The process answers',
      responses: { 200: z.object({ ok: z.literal(true) }) },
    },
    (_req, res) => {
      res.json({ ok: true });
    },
  );
  declare(
    router,
    {
      ...service,
      path: '/readyz',
      operationId: 'ready',
      summary: 'Every dependency answers',
      responses: { 200: readiness, 503: readiness },
    },
    async (_req, res) => {
      const [results, extra] = await Promise.all([run(checks), run(shown)]);
      const failing = results.filter(([, ok]) => !ok).map(([name]) => name);
      const degraded = extra.filter(([, ok]) => !ok).map(([name]) => name);
      const stopping = shuttingDown();
      const ok = failing.length === 0 && !stopping;
      res.status(ok ? 200 : 503).json({
        ok,
        checks: Object.fromEntries([...results, ...extra]),
        ...(degraded.length ? { degraded } : {}),
        ...(stopping ? { shuttingDown: true as const } : {}),
      });
    },
  );
  return router;
}

const run = (checks: Record<string, ReadinessCheck>) =>
  Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        return [name, await check()] as const;
      } catch {
        return [name, false] as const;
      }
    }),
  );
