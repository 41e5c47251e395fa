import http from 'node:http';
import express from 'express';
import type { Config } from '@server/config';
import { createApiApp } from '@server/app';
import { createGateway, type Gateway } from '@server/gateway/gateway';
import { createMarketService } from '@server/modules/market/market.service';
import type { Bus } from '@server/platform/bus';
import type { Db } from '@server/platform/db';
import { healthRoutes } from '@server/platform/http/health';
import type { Logger } from '@server/platform/logger';
import { defaultCatalogue } from '@sim/catalogue';
import { startFeed, type Feed } from '@sim/feed';

/** The pieces each entry point assembles; `all.ts` uses every one on a single HTTP server. */

export function startSim(config: Config, db: Db, bus: Bus, log: Logger): Promise<Feed> {
  return startFeed({
    db,
    bus,
    catalogue: defaultCatalogue,
    seed: config.SIM_SEED,
    ticksPerSecond: config.SIM_TICKS_PER_SECOND,
    backfillHours: config.SIM_BACKFILL_HOURS,
    retentionHours: config.TICK_RETENTION_HOURS,
    log: log.child({ part: 'sim' }),
  });
}

export async function startApi(config: Config, db: Db, bus: Bus, log: Logger) {
  const market = await createMarketService({ db, bus, catalogue: defaultCatalogue });
  const app = createApiApp({ config, db, bus, log, market });
  return { app, market };
}

export function attachGateway(server: http.Server, bus: Bus, log: Logger): Promise<Gateway> {
  return createGateway(server, {
    bus,
    log: log.child({ part: 'gateway' }),
    productIds: new Set(defaultCatalogue.map((p) => p.id)),
  });
}

/** A bare HTTP server with only /healthz and /readyz, for the gateway and sim roles. */
export function healthServer(checks: Parameters<typeof healthRoutes>[0]): http.Server {
  const app = express();
  app.disable('x-powered-by');
  app.use(healthRoutes(checks));
  return http.createServer(app);
}
