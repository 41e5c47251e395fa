import http from 'node:http';
import express from 'express';
import { createLogger } from '@infra/logger';
import { healthRoutes } from '@server/platform/http/health';
import { closeServer, installShutdown, listen } from '@server/platform/lifecycle';

/**
 * A process for lifecycle.test.ts: the health routes and a slow route (`SLOW_MS`), stopped by
 * `installShutdown` with a drain window of `DRAIN_MS`. Prints `listening <port>` once it serves.
 */
const log = createLogger('info', 'api');
const app = express();
app.use(healthRoutes({}));
app.get('/slow', (_req, res) => {
  setTimeout(() => res.json({ ok: true }), Number(process.env.SLOW_MS ?? 0));
});
const server = http.createServer(app);
const port = await listen(server, 0, '127.0.0.1');
installShutdown(
  log,
  10_000,
  [{ name: 'http', close: () => closeServer(server) }],
  Number(process.env.DRAIN_MS ?? 0),
);
process.stdout.write(`listening ${port}\n`);
