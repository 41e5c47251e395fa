import { Router } from 'express';
import type { AppInfo } from '@shared/accounts';
import { languages } from '@shared/languages';
import { appInfoDto } from '@shared/dto';
import type { Config } from '@server/config';
import { declare } from '@server/platform/http/route';

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
  declare(
    r,
    {
      method: 'get',
      path: '/app-info',
      operationId: 'appInfo',
      summary: 'What the client needs first',
      tag: 'Accounts',
      responses: { 200: appInfoDto },
    },
    (_req, res) => {
      res.json(info);
    },
  );
  return r;
}
