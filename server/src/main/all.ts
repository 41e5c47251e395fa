import http from 'node:http';
import { loadConfigOrExit } from '@server/config';
import { createApiApp } from '@server/app';
import { openDatabase } from '@server/platform/db';
import { openBus } from '@server/platform/bus';
import { createLogger } from '@server/platform/logger';
import { closeServer, installShutdown, listen } from '@server/platform/lifecycle';

/** Embedded mode: sim, api, gateway and worker in one process, on PGlite and the in-process bus by default. */
const config = loadConfigOrExit();
const log = createLogger(config.LOG_LEVEL, 'all');
const db = await openDatabase(config);
const bus = openBus(config.REDIS_URL, log);

const app = createApiApp({ config, db, bus, log });
const server = http.createServer(app);
const port = await listen(server, config.PORT, config.HOST);
log.info({ port, database: db.kind, bus: bus.kind }, `app ready at http://localhost:${port}`);

installShutdown(log, config.SHUTDOWN_TIMEOUT_MS, [
  { name: 'http', close: () => closeServer(server) },
  { name: 'bus', close: () => bus.close() },
  { name: 'database', close: () => db.close() },
]);
