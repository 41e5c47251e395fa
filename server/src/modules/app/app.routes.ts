import { Router } from 'express';
import type { AppInfo } from '@shared/accounts/model';
import { languages } from '@shared/languages';
import { appInfo } from '@shared/accounts/endpoints';
import type { Config } from '@server/config';
import { serve } from '@server/platform/http/serve';

/** GET /api/app-info: what the client needs before anything else. */
export function appInfoRoutes(config: Config): Router {
  const info: AppInfo = {
    name: config.APP_NAME,
    currency: config.CURRENCY,
    serviceUrl: config.SERVICE_URL,
    depositChannels: ['bank', 'usdt-trc20', 'usdt-erc20'],
    languages: [...languages],
    ...(config.APP_LOGO_URL ? { logoUrl: config.APP_LOGO_URL } : {}),
    legalEntity: config.LEGAL_ENTITY,
    legalRegistration: config.LEGAL_REGISTRATION,
    ...(config.RISK_WARNING ? { riskWarning: config.RISK_WARNING } : {}),
    termsVersion: config.TERMS_VERSION,
    showCreditScore: config.SHOW_CREDIT_SCORE,
    ...(config.TEST_CLOCK === '1' ? { testClock: true } : {}),
  };
  const r = Router();
  serve(r, appInfo, undefined, () => Promise.resolve(info));
  return r;
}
