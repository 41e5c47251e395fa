import { Router } from 'express';
import type { AppInfo } from '@shared/accounts';
import { languages } from '@shared/languages';
import type { Config } from '@server/config';

/** GET /api/app-info: what the client needs before anything else. */
export function appInfoRoutes(config: Config): Router {
  const info: AppInfo = {
    name: config.APP_NAME,
    currency: config.CURRENCY,
    serviceUrl: config.SERVICE_URL,
    depositChannels: ['bank', 'usdt-trc20', 'usdt-erc20'],
    languages: [...languages],
    ...(config.TEST_CLOCK === '1' ? { testClock: true } : {}),
  };
  const r = Router();
  r.get('/app-info', (_req, res) => {
    res.json(info);
  });
  return r;
}
