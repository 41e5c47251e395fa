import { Router } from 'express';

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
  router.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  router.get('/readyz', async (_req, res) => {
    const [results, extra] = await Promise.all([run(checks), run(shown)]);
    const failing = results.filter(([, ok]) => !ok).map(([name]) => name);
    const degraded = extra.filter(([, ok]) => !ok).map(([name]) => name);
    res.status(failing.length ? 503 : 200).json({
      ok: failing.length === 0,
      checks: Object.fromEntries([...results, ...extra]),
      ...(degraded.length ? { degraded } : {}),
    });
  });
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
