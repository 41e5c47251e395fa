import { Router } from 'express';

export type ReadinessCheck = () => Promise<boolean> | boolean;

/** `/healthz`: the process answers. `/readyz`: every dependency answers (503 naming the failing ones). */
export function healthRoutes(checks: Record<string, ReadinessCheck>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          return [name, await check()] as const;
        } catch {
          return [name, false] as const;
        }
      }),
    );
    const failing = results.filter(([, ok]) => !ok).map(([name]) => name);
    res
      .status(failing.length ? 503 : 200)
      .json({ ok: failing.length === 0, checks: Object.fromEntries(results) });
  });
  return router;
}
