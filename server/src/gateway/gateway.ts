import type { Server as HttpServer } from 'node:http';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { socketLimits } from '@shared/socket';
import type { Bus } from '@infra/bus';
import type { Logger } from '@infra/logger';
import type { Metrics } from '../platform/metrics';
import type { ReplaySource } from '../platform/user-events';
import { createAdmission, REFUSED_GRACE_MS } from './admission';
import { createBacklog, defaultBacklogLimits, type BacklogLimits } from './backlog';
import type { ConnectionLimits } from './connection-throttle';
import { toMarketSnapshot } from './snapshot';
import type { TicketSigner } from './socket-ticket';
import type { RevokedSessions } from '../platform/revoked-sessions';
import { createTickRing } from './tick-ring';
import { rateMeter } from '@server/platform/process-reports';
import { TAPE_WANTED_EVERY_MS, tapeWanted } from '@server/platform/tape-demand';
import { SocketServer } from './socket-server';
import { clientEventHandlers, type MarketCache } from './client-events';
import { gatewayServer, marketBroadcaster, type GatewayServer } from './rooms';

export interface GatewayDeps {
  bus: Bus;
  log: Logger;
  productIds: ReadonlySet<string>;
  metrics?: Pick<
    Metrics,
    | 'sockets'
    | 'deliveries'
    | 'broadcasts'
    | 'connectionsRefused'
    | 'admissions'
    | 'slowConsumers'
    | 'conflated'
  >;
  /**
   * Resolves a session token to a user id, or null when its session is over; throws when it
   * cannot tell now. Without it, a token is ignored and the socket is anonymous.
   */
  authenticate?: (token: string) => Promise<string | null>;
  /**
   * Socket tickets (SOCKET_TICKET_SECRET): signed-in sockets get one in `hello`, renewed before
   * it expires, and a connection bringing a valid one for its token is admitted by it, checked
   * against the revoked sessions instead of by `authenticate`. Without it, every token is checked.
   */
  tickets?: { signer: TicketSigner; revoked: Pick<RevokedSessions, 'isRevoked'> };
  /**
   * On close: how long the sockets are spread over, disconnected in batches, each told to
   * reconnect (GATEWAY_DRAIN_MS); default 0, all at once.
   */
  drainMs?: number;
  /**
   * The user events a reconnecting socket missed (after its handshake's `since`). Without it
   * every signed-in hello says `replay: 'gap'`.
   */
  replay?: ReplaySource;
  /**
   * Connections per client address (SOCKET_CONNECT_RATE, SOCKET_MAX_PER_ADDRESS). Required, so
   * every gateway, the tests' and load tools' included, says which limits it runs with.
   */
  connectionLimits: ConnectionLimits;
  /** Whose X-Forwarded-For names the client (TRUST_PROXY, Express syntax); default loopback. */
  trustProxy?: string;
  /** Per-socket send backlog limits (SOCKET_CONFLATE_BYTES, SOCKET_DISCONNECT_BYTES). */
  backlog?: BacklogLimits;
  /** Engine.IO heartbeat; default 20 s and 20 s. */
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
}
export interface Gateway {
  io: GatewayServer;
  /** What this gateway holds unsent for its sockets now, bytes (the sum of their backlogs). */
  backlogBytes(): number;
  /**
   * Its connected sockets, and the ticks per second it heard since the last call (the operators'
   * dashboard reads it every 2 s through the process report).
   */
  figures: () => { sockets: number; ticksPerSecond: number };
  /** True from the start of `close`: readiness fails, so a balancer sends no one new. */
  draining(): boolean;
  /**
   * The adapter's subscription to user events was lost, then is back: the signed-in sockets
   * are caught up from their users' buffers with what they may have missed
   * (user-event-replay.ts).
   */
  userEventsLost(): void;
  userEventsBack(): Promise<{ sockets: number; gaps: number }>;
  /**
   * Refuses new connections, closes its sockets' connections spread over `drainMs` (each client
   * reconnects, to another gateway behind the balancer), then closes.
   */
  close(): Promise<void>;
}
/**
 * The gateway: market data to anyone, user events to authenticated sockets. Ticks and snapshots
 * come from the bus and go out only to this gateway's sockets (never through an adapter, which
 * would repeat them on every gateway): one broadcast per tick per room, encoded and framed once
 * for all its sockets, each socket's send backlog bounded (backlog.ts).
 */
export async function createGateway(httpServer: HttpServer, deps: GatewayDeps): Promise<Gateway> {
  const market: MarketCache = { snapshot: null, ticks: createTickRing() };
  const limiter = new RateLimiterMemory({ points: socketLimits.eventsPerSecond, duration: 1 });
  const admission = createAdmission(deps);
  const backlog = createBacklog(deps.backlog ?? defaultBacklogLimits, deps.log, deps.metrics);
  const ticksHeard = rateMeter();
  // Someone watches prices: the tape at its full cadence (a tick is published once written).
  const wantTape = tapeWanted(deps.bus, 'gateway');
  let draining = false;

  const server = new SocketServer(
    httpServer,
    {
      upgrade: admission.upgrade,
      admit: admission.admit,
      connected(conn) {
        deps.metrics?.sockets.inc();
        wantTape();
        admission.welcome(conn);
      },
      disconnected(conn) {
        deps.metrics?.sockets.dec();
        backlog.forget(conn);
        void limiter.delete(conn.id);
      },
      afterWrite: (conn) => backlog.check(conn),
      events: clientEventHandlers(limiter, deps.productIds, market, backlog),
    },
    {
      pingIntervalMs: deps.pingIntervalMs ?? 20_000,
      pingTimeoutMs: deps.pingTimeoutMs ?? 20_000,
      maxPayload: 16 * 1024,
      connectTimeoutMs: 45_000,
      refusedGraceMs: REFUSED_GRACE_MS,
    },
  );
  const broadcast = marketBroadcaster(server, backlog, deps.metrics);
  const watching = setInterval(
    () => server.clientsCount > 0 && wantTape(),
    TAPE_WANTED_EVERY_MS,
  ).unref();

  // One pass over every socket renews the tickets past half their life (admission.ts).
  const renewer = deps.tickets
    ? setInterval(
        () => admission.renewTickets(server.sockets.values()),
        renewEveryMs(deps.tickets.signer.ttlMs),
      ).unref()
    : null;

  const offs = await Promise.all([
    deps.bus.subscribe('tick', ({ tick }) => {
      ticksHeard.mark();
      market.ticks.add(tick);
      broadcast(`ticks:${tick.id}`, 'tick', tick);
    }),
    deps.bus.subscribe('market', ({ market: state }) => {
      const snapshot = toMarketSnapshot(state);
      market.snapshot = snapshot;
      broadcast('market', 'market', snapshot);
    }),
    deps.bus.subscribe('product', ({ product }) => {
      for (const conn of server.sockets.values()) conn.sendEvent('product', product);
    }),
  ]);

  return {
    io: gatewayServer(server),
    backlogBytes: () => backlog.bytes(server.sockets.values()),
    figures: () => ({ sockets: server.clientsCount, ticksPerSecond: ticksHeard.perSecond() }),
    draining: () => draining,
    userEventsLost: () => admission.subscriptionLost(server.sockets.values()),
    userEventsBack: () => admission.subscriptionBack(server.sockets.values()),
    async close() {
      draining = true;
      server.stopAccepting();
      // A closed connection, not a Socket.IO disconnect: every socket.io client reconnects
      // after a lost connection by itself (with its randomized backoff), and only the app's
      // own client would after a server disconnect.
      await spreadOver([...server.sockets.values()], deps.drainMs ?? 0, (conn) => conn.close());
      if (renewer) clearInterval(renewer);
      clearInterval(watching);
      admission.stop();
      backlog.stop();
      await Promise.all(offs.map((off) => off()));
      // Stop accepting first: a client reconnecting while the sockets close is refused, and the
      // balancer tries the next gateway, instead of reaching a server that no longer upgrades.
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      await server.close();
      await closed;
    },
  };
}

/** A ticket is renewed at half its life; its socket's pass comes at least every tenth of it. */
function renewEveryMs(ttlMs: number): number {
  return Math.min(60_000, Math.max(1000, Math.floor(ttlMs / 10)));
}

/** How often a drain disconnects its next batch. */
const DRAIN_STEP_MS = 100;

/**
 * Runs `act` on every item, in equal batches spread evenly over `ms` (the first batch at once):
 * a drain's sockets come back to the other gateways as a stream, not as one storm.
 */
async function spreadOver<T>(items: T[], ms: number, act: (item: T) => void): Promise<void> {
  const steps = Math.max(1, Math.min(items.length, Math.floor(ms / DRAIN_STEP_MS)));
  const size = Math.ceil(items.length / steps);
  for (let i = 0; i < steps; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, ms / steps));
    for (const item of items.slice(i * size, (i + 1) * size)) act(item);
  }
}
