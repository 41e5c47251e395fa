import http from 'node:http';
import { loadConfigOrExit } from '@server/config';
import { createApiApp } from '@server/app';
import { openDatabase } from '@server/platform/db';
import { openBus } from '@server/platform/bus';
import { createLogger } from '@server/platform/logger';
import { closeServer, installShutdown, listen } from '@server/platform/lifecycle';

/** The api role: REST, the settlement worker and daily jobs. Scale out freely. */
const config = loadConfigOrExit();
const log = createLogger(config.LOG_LEVEL, 'api');
const db = await openDatabase(config);
const bus = openBus(config.REDIS_URL, log);

const server = http.createServer(createApiApp({ config, db, bus, log }));
const port = await listen(server, config.PORT, config.HOST);
log.info({ port, database: db.kind, bus: bus.kind }, 'api ready');

installShutdown(log, config.SHUTDOWN_TIMEOUT_MS, [
  { name: 'http', close: () => closeServer(server) },
  { name: 'bus', close: () => bus.close() },
  { name: 'database', close: () => db.close() },
]);
