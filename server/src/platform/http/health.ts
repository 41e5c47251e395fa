import { Router } from 'express';
import { z } from 'zod';
import { declare } from './route';

const readiness = z.object({ ok: z.boolean(), checks: z.record(z.string(), z.boolean()) });

export type ReadinessCheck = () => Promise<boolean> | boolean;

/**
 * `/healthz`: the process answers. `/readyz`: every dependency in `checks` answers (503 naming
 * the failing ones). `shown` are dependencies reported under `degraded` without failing
 * readiness: the process still serves without them (a gateway without its api still serves
 * market data).
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
      res.status(failing.length ? 503 : 200).json({
        ok: failing.length === 0,
        checks: Object.fromEntries([...results, ...extra]),
        ...(degraded.length ? { degraded } : {}),
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
