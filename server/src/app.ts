import fs from 'node:fs';
import path from 'node:path';
import { checkAnswers } from '@server/platform/http/serve';
import express, { type Express } from 'express';
import type { Redis } from 'ioredis';
import compression from 'compression';
import cors from 'cors';
import type { Config } from './config';
import type { Db } from '@infra/db';
import type { Bus } from '@infra/bus';
import type { Logger } from '@infra/logger';
import { errorHandler } from './platform/http/error-handler';
import { notFound } from './platform/http/errors';
import { healthRoutes } from './platform/http/health';
import { requestLog } from './platform/http/request-log';
import { securityHeaders } from './platform/http/security-headers';
import { httpMetrics, markRouteBase } from './platform/http/http-metrics';
import type { Metrics } from './platform/metrics';
import { marketRoutes } from './modules/market/market.routes';
import { createPublicReads, publicReadFigures } from './modules/market/public-reads';
import { throttlePerAddress } from './platform/http/address-throttle';
import { createConcurrencyGate, type GateLimits } from './platform/concurrency-gate';
import { createLimiter } from './platform/rate-limit';
import { createReadCache } from './platform/read-cache';
import { createTokenBuckets, failingOpen } from './platform/token-bucket';
import type { MarketService } from './modules/market/market.service';
import type { FairnessService } from './modules/market/fairness.service';
import type { FavouritesService } from './modules/market/favourites.service';
import { favouritesRoutes } from './modules/market/favourites.routes';
import type { AlertsService } from './modules/alerts/alerts.service';
import { alertsRoutes } from './modules/alerts/alerts.routes';
import type { DrawingsService } from './modules/drawings/drawings.service';
import { drawingsRoutes } from './modules/drawings/drawings.routes';
import { appInfoRoutes } from './modules/app/app.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { twoFactorResetRoutes } from './modules/auth/two-factor-reset.routes';
import type { TwoFactorResets } from './modules/auth/two-factor.reset';
import type { AuthService } from './modules/auth/auth.service';
import { operatorRoutes } from './modules/operator/operator.routes';
import { operatorsRoutes } from './modules/operator/operators.routes';
import { usersOpsRoutes } from './modules/operator/users.ops.routes';
import { twoFactorOpsRoutes } from './modules/operator/two-factor.ops.routes';
import type { OperatorsService } from './modules/operator/operators.service';
import { operatorGate } from './platform/http/operator-gate';
import type { OperatorTokenHashes } from '@server/platform/http/auth';
import { openApiRoutes } from './platform/http/openapi';
import { uploadRoutes } from './modules/uploads/upload.routes';
import type { UploadService } from './modules/uploads/upload.service';
import { kycRoutes } from './modules/kyc/kyc.routes';
import type { KycService } from './modules/kyc/kyc.service';
import { walletRoutes } from './modules/wallet/wallet.routes';
import { walletOpsRoutes } from './modules/wallet/wallet.ops.routes';
import type { WalletService } from './modules/wallet/wallet.service';
import { ordersRoutes } from './modules/orders/orders.routes';
import type { OrdersService } from './modules/orders/orders.service';
import { ordersOpsRoutes } from './modules/orders/orders.ops.routes';
import { practiceResetLimit, practiceRoutes } from './modules/wallet/practice.routes';
import type { PracticeService } from './modules/wallet/practice';
import { savingsRoutes } from './modules/savings/savings.routes';
import type { SavingsService } from './modules/savings/savings.service';
import { testClockRoutes, type TestClock } from './modules/savings/test-clock.routes';
import { contentRoutes } from './modules/content/content.routes';
import { contentOpsRoutes } from './modules/content/content.ops.routes';
import type { ContentService } from './modules/content/content.service';
import type { MessagesService } from './modules/content/messages.service';
import type { ProcessBoard } from './platform/process-reports';

export interface ApiDeps {
  config: Config;
  db: Db;
  bus: Bus;
  log: Logger;
  market: MarketService;
  fairness: FairnessService;
  favourites: FavouritesService;
  alerts: AlertsService;
  drawings: DrawingsService;
  auth: AuthService;
  /** The support reset of two-factor sign-in, and support's view of it. */
  twoFactorResets: TwoFactorResets;
  uploads: UploadService;
  wallet: WalletService;
  kyc: KycService;
  orders: OrdersService;
  savings: SavingsService;
  practice: PracticeService;
  content: ContentService;
  messages: MessagesService;
  /** Only when the server starts with TEST_CLOCK=1: mounts /api/test/clock. */
  testClock?: TestClock | null;
  /**
   * SHA-256 of the operator token (and, during a rotation, of the previous one); null keeps
   * operator endpoints closed.
   */
  operatorTokenHash: OperatorTokenHashes | null;
  /** Named operators, their sessions, the audit log (issue 20) and the access log (issue 33). */
  operators: OperatorsService;
  /** The running processes' live figures, heard on the bus (the operators' dashboard). */
  board: Pick<ProcessBoard, 'figures'>;
  /** Request durations by route pattern and status (`http_request_duration_seconds`). */
  metrics?: Pick<Metrics, 'httpDuration'>;
  /**
   * Where the throttles of market reads, orders and practice resets count: in Redis when
   * several api processes share them (as the account throttles' store); in memory when absent.
   */
  throttles?: { keyPrefix: string; redis?: Redis };
  /** The gate of anonymous market reads, when not the production figures (tests). */
  publicReadGate?: GateLimits;
}

/** The api process's Express app: health, the REST API under /api, and the built client. */
export function createApiApp({
  config,
  db,
  bus,
  log,
  market,
  fairness,
  favourites,
  alerts,
  drawings,
  auth,
  twoFactorResets,
  uploads,
  wallet,
  kyc,
  orders,
  savings,
  practice,
  content,
  messages,
  board,
  testClock,
  operatorTokenHash,
  operators,
  metrics,
  throttles = { keyPrefix: 'throttle' },
  publicReadGate,
}: ApiDeps): Express {
  const gate = operatorGate({
    tokenHash: operatorTokenHash,
    operators,
    audit: operators,
    onAuditFailure: (err, entry) =>
      log.error(
        { err, event: 'operator.audit_failed', action: entry.action, target: entry.target },
        'an operator action committed but its audit line was not written',
      ),
  });
  const { marketThrottle, reads, orderThrottle, resetThrottle } = publicLimits({
    config,
    db,
    log,
    market,
    fairness,
    throttles,
    publicReadGate,
  });
  const app = publicApp({ config, db, bus, log, metrics });

  const api = express.Router();
  // The route label of HTTP metrics keeps the /api prefix (platform/http/http-metrics.ts).
  api.use(markRouteBase);
  api.use(
    cors({
      origin: config.CORS_ORIGINS.length ? config.CORS_ORIGINS : false,
      exposedHeaders: ['X-Request-Id'],
    }),
  );
  api.use(express.json({ limit: '64kb' }));
  api.use(appInfoRoutes(config));
  api.use(marketRoutes({ market, reads, throttle: marketThrottle }));
  api.use(favouritesRoutes(auth, favourites));
  api.use(alertsRoutes(auth, alerts));
  api.use(drawingsRoutes(auth, drawings));
  api.use(ordersRoutes(auth, orders, orderThrottle));
  api.use(authRoutes(auth));
  api.use(twoFactorResetRoutes(auth, twoFactorResets));
  api.use(operatorsRoutes(operators, gate));
  api.use(operatorRoutes({ market, auth, gate }));
  api.use(
    usersOpsRoutes({
      auth,
      twoFactor: twoFactorResets,
      wallet,
      orders,
      kyc,
      gate,
      accessLog: operators,
      live: board,
      offsetMinutes: config.PLATFORM_UTC_OFFSET_MINUTES,
    }),
  );
  api.use(twoFactorOpsRoutes(twoFactorResets, gate));
  api.use(
    uploadRoutes({
      uploads,
      auth,
      reviewerOf: (token) => gate.callerReaching(token, 'reviews'),
      accessLog: operators,
    }),
  );
  api.use(walletRoutes(wallet, auth));
  api.use(walletOpsRoutes(wallet, gate));
  api.use(practiceRoutes(practice, auth, resetThrottle));
  api.use(ordersOpsRoutes(orders, gate));
  api.use(kycRoutes({ kyc, auth, gate }));
  api.use(contentRoutes({ content, messages, auth }));
  api.use(contentOpsRoutes({ content, messages, gate }));
  api.use(savingsRoutes(savings, auth));
  if (testClock) api.use(testClockRoutes(testClock));
  // The contract's own description (API.md): GET /api/openapi.json, generated from the routes
  // declared above, so it comes after them.
  api.use(openApiRoutes());
  api.use((_req, _res, next) => next(notFound('No such endpoint')));
  app.use('/api', api);

  serveClient(app, config.clientDir);
  app.use(errorHandler(log));
  return app;
}

/**
 * The public app before its routes: request ids and the access log, HTTP metrics, the trusted
 * proxies, security headers, compression of reads, and health.
 */
function publicApp({
  config,
  db,
  bus,
  log,
  metrics,
}: Pick<ApiDeps, 'config' | 'db' | 'bus' | 'log' | 'metrics'>): Express {
  const app = express();
  app.disable('x-powered-by');
  checkAnswers(config.NODE_ENV !== 'production');
  // First: every response, refusals by later middleware too, carries a request id and an
  // access-log line.
  app.use(requestLog(log));
  if (metrics) app.use(httpMetrics(metrics.httpDuration));
  // Client addresses (login throttling) come from X-Forwarded-For only when set by a trusted proxy.
  app.set('trust proxy', config.TRUST_PROXY);
  // helmet's headers on every response, worked out once per build of the client.
  app.use(securityHeaders({ clientDir: config.clientDir, logoUrl: config.APP_LOGO_URL }));
  // gzip for the client's scripts and styles (a third of their size on a phone's network) and
  // for JSON lists; images and small answers pass through as they are. Only answers to GET and
  // HEAD: a POST answers with one object, under compression's 1 KB threshold, and the wrapping
  // alone cost every placement about a tenth of its CPU.
  const compress = compression();
  app.use((req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') compress(req, res, next);
    else next();
  });
  app.use(healthRoutes({ database: () => db.ping(), bus: () => bus.ready() }));
  // No /metrics here: this app faces the public (DECISIONS.md, Metrics); see metricsServer.
  return app;
}

/**
 * What bounds the work one client can cause (DECISIONS.md, Public market reads and order
 * throttles): the market reads' throttle per client address (MARKET_READ_RATE), their cache and
 * database gate, and the per-user throttles of placements (ORDER_BURST, ORDER_RATE) and practice
 * resets. A throttle whose store fails lets requests through (fail-open.ts).
 */
function publicLimits(d: {
  config: Config;
  db: Db;
  log: Logger;
  market: MarketService;
  fairness: FairnessService;
  throttles: { keyPrefix: string; redis?: Redis };
  publicReadGate?: GateLimits;
}) {
  const { config, log, throttles } = d;
  const store = (name: string) => ({
    keyPrefix: `${throttles.keyPrefix}:${name}`,
    redis: throttles.redis,
  });
  const marketRate = config.MARKET_READ_RATE;
  const buckets = (name: string, spec: { burst: number; perSecond: number }) =>
    failingOpen(createTokenBuckets(spec, store(name)), { name, log });
  return {
    marketThrottle: marketRate
      ? throttlePerAddress(createLimiter({ ...marketRate, ...store('market') }), {
          name: 'market reads',
          log,
        })
      : null,
    reads: createPublicReads({
      market: d.market,
      fairness: d.fairness,
      cache: createReadCache(),
      gate: createConcurrencyGate(
        d.publicReadGate ??
          publicReadFigures.gate[d.db.kind === 'postgres' ? 'postgres' : 'pglite'],
      ),
      // A fairness period's whole tape in one window (what `npm run verify:tape` reads).
      ticksMaxSpanMs: Math.max(
        publicReadFigures.ticksMaxSpanMs,
        config.SIM_PERIOD_MINUTES * 60_000,
      ),
    }),
    orderThrottle:
      config.ORDER_RATE === null
        ? null
        : buckets('orders', { burst: config.ORDER_BURST, perSecond: config.ORDER_RATE }),
    resetThrottle: buckets('practice-resets', practiceResetLimit),
  };
}

/**
 * Files the browser must check on every use: they keep their names from build to build. The
 * service worker above all: an immutable copy would pin every visitor to one version.
 */
const revalidated = new Set(['sw.js', 'manifest.webmanifest', 'index.html', 'ops.html']);

function serveClient(app: Express, dir: string): void {
  const index = path.join(dir, 'index.html');
  app.use(
    express.static(dir, {
      index: false,
      maxAge: '1y',
      immutable: true,
      // Runs before `send` writes its Cache-Control, which then leaves this one in place.
      setHeaders: (res, file) => {
        if (revalidated.has(path.relative(dir, file))) res.setHeader('Cache-Control', 'no-cache');
      },
    }),
  );
  app.get('/', (_req, res) => {
    if (!fs.existsSync(index)) {
      res
        .status(503)
        .type('text')
        .send('The client is not built yet: run `npm run build` (npm start does it for you).');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  // The operator console (issue 20): its own page, a hash router inside, so every /ops path is
  // that one html. Its API (/api/ops) checks every call; the page itself holds no secret.
  const opsPage = path.join(dir, 'ops.html');
  app.get(['/ops', '/ops/{*rest}'], (_req, res) => {
    if (!fs.existsSync(opsPage)) {
      res.status(503).type('text').send('The client is not built yet: run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(opsPage);
  });
}
