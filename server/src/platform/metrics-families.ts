import { Counter, Gauge, Histogram } from 'prom-client';
import type { On, ScrapeSources } from './metrics-sources';

/**
 * The product's own metrics, one family per part of the platform: each registered only on the
 * registries of the roles that fill it (`on`).
 */

/**
 * A gauge without labels that exports no sample until it is first set (prom-client starts one
 * at 0, which would look like a real reading: a failed ledger check, a tape just written).
 */
function unsetUntilSet<G extends Gauge>(gauge: G): G {
  gauge.remove();
  return gauge;
}

/** The gateway's sockets, broadcasts and admissions. */
export function gatewayMetrics(on: On) {
  return {
    sockets: new Gauge({
      name: 'gateway_connected_sockets',
      help: 'Connected Socket.IO clients',
      registers: on('gateway'),
    }),
    deliveries: new Counter({
      name: 'gateway_deliveries_total',
      help: 'Messages handed to sockets (one per socket per broadcast)',
      labelNames: ['event'],
      registers: on('gateway'),
    }),
    broadcasts: new Counter({
      name: 'gateway_broadcasts_total',
      help: 'Broadcasts (one per room per message)',
      labelNames: ['event'],
      registers: on('gateway'),
    }),
    connectionsRefused: new Counter({
      name: 'gateway_connections_refused_total',
      help: 'Socket connections refused RATE_LIMITED, by limit (rate, concurrency) per client address',
      labelNames: ['reason'],
      registers: on('gateway'),
    }),
    admissions: new Counter({
      name: 'gateway_socket_admissions_total',
      help: 'Signed-in sockets admitted, by what vouched for the session: a socket ticket (no api call) or the token (checked by the api)',
      labelNames: ['by'],
      registers: on('gateway'),
    }),
    slowConsumers: new Counter({
      name: 'gateway_slow_consumers_total',
      help: 'Sockets whose send backlog passed a limit: conflated (market channels reduced to their newest message) or disconnected',
      labelNames: ['action'],
      registers: on('gateway'),
    }),
    conflated: new Counter({
      name: 'gateway_conflated_messages_total',
      help: 'Market messages (ticks, snapshots) a slow socket never got because a newer one replaced them',
      registers: on('gateway'),
    }),
    apiReachable: new Gauge({
      name: 'gateway_api_reachable',
      help: 'Whether the gateway reaches the api that checks socket tokens (1) or not (0: signed-in sockets are refused UNAVAILABLE)',
      registers: on('gateway'),
    }),
  };
}

/** The simulator: its lease, the feed's rhythm and the tape writer. */
export function simMetrics(on: On, sources: ScrapeSources) {
  return {
    simLeader: new Gauge({
      name: 'sim_leader',
      help: 'Whether this simulator leads (1) or waits as a standby (0)',
      registers: on('sim'),
    }),
    simLeaseEpoch: new Gauge({
      name: 'sim_lease_epoch',
      help: "The simulator lease's epoch this process last led in (raised on every change of leader)",
      registers: on('sim'),
    }),
    simTickGaps: new Histogram({
      name: 'sim_tick_gap_seconds',
      help: "Time between consecutive ticks of an open product (the feed's rhythm; a gap past MAX_FEED_DELAY_MS voids orders)",
      labelNames: ['product'],
      buckets: [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 30],
      registers: on('sim'),
    }),
    simTicks: new Counter({
      name: 'sim_ticks_total',
      help: 'Ticks emitted, by product (rate() gives ticks per second)',
      labelNames: ['product'],
      registers: on('sim'),
    }),
    tapeBuffered: new Gauge({
      name: 'sim_tape_buffered_ticks',
      help: 'Ticks published but not yet written to the tape (grows while the database is away)',
      registers: on('sim'),
      collect() {
        this.set(sources.tape?.().buffered ?? 0);
      },
    }),
    tapeWriteAge: new Gauge({
      name: 'sim_tape_last_write_age_seconds',
      help: 'Seconds since the tape writer last wrote successfully (absent before its first write and on a standby)',
      registers: on('sim'),
      collect() {
        // Not reset(): that sets an unlabelled gauge to 0, "just written".
        this.remove();
        const last = sources.tape?.().lastWriteMs;
        if (last != null) this.set((Date.now() - last) / 1000);
      },
    }),
  };
}

/** Orders placed and refused by the api, and its HTTP requests. */
export function apiMetrics(on: On) {
  return {
    placements: new Counter({
      name: 'orders_placed_total',
      help: 'Orders accepted, by mode (real, practice): practice volume is never revenue',
      labelNames: ['mode'],
      registers: on('api'),
    }),
    refusals: new Counter({
      name: 'orders_refused_total',
      help: 'Orders refused, by error code and mode',
      labelNames: ['code', 'mode'],
      registers: on('api'),
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests of the api, by method, route pattern (never the raw path) and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: on('api'),
    }),
  };
}

/**
 * The api's periodic ledger check. Both gauges are absent until the process's first check has
 * run: a fresh api has no verdict yet, and a 0 would page LedgerCheckFailing on every restart.
 */
export function ledgerCheckMetrics(on: On) {
  return {
    ledgerCheckOk: unsetUntilSet(
      new Gauge({
        name: 'ledger_check_ok',
        help: 'Whether the last periodic ledger check passed (1) or found a problem or failed to run (0); absent before the first check',
        registers: on('api'),
      }),
    ),
    ledgerCheckLastRun: unsetUntilSet(
      new Gauge({
        name: 'ledger_check_last_run_timestamp_seconds',
        help: 'When the periodic ledger check last ran (Unix time); absent before the first check',
        registers: on('api'),
      }),
    ),
  };
}

/** Settlement, by whichever process runs the worker (the api or a worker of its own). */
export function settlementMetrics(on: On, sources: ScrapeSources) {
  return {
    settled: new Counter({
      name: 'orders_settled_total',
      help: 'Orders settled, by result, mode and product (voids for want of an entry tick included)',
      labelNames: ['status', 'mode', 'product'],
      registers: on('api', 'worker'),
    }),
    voided: new Counter({
      name: 'orders_voided_total',
      help: 'Orders void with their stake refunded, by reason (FEED_STALE, NO_ENTRY_TICK), product and mode',
      labelNames: ['reason', 'product', 'mode'],
      registers: on('api', 'worker'),
    }),
    settlementLag: new Histogram({
      name: 'settlement_lag_seconds',
      help: 'From an order expiry to its settlement',
      buckets: [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10],
      registers: on('api', 'worker'),
    }),
    entryLag: new Histogram({
      name: 'order_entry_lag_seconds',
      help: "From an order's entry tick to the entry written on the order",
      buckets: [0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 2, 5],
      registers: on('api', 'worker'),
    }),
    settlementBacklog: new Gauge({
      name: 'settlement_backlog_orders',
      help: 'Open orders the settlement worker owes, by kind: overdue (past expiry) or awaiting_entry (no entry tick written yet)',
      labelNames: ['kind'],
      registers: on('api', 'worker'),
      async collect() {
        if (!sources.backlog) return;
        try {
          const b = await sources.backlog();
          this.set({ kind: 'overdue' }, b.overdue);
          this.set({ kind: 'awaiting_entry' }, b.awaitingEntry);
        } catch {
          // The database is away: no figure rather than a stale one.
          this.reset();
        }
      },
    }),
  };
}

/** The chain watchers (docs/OPERATIONS.md, USDT deposits by address), by network. */
export function chainMetrics(on: On) {
  return {
    chainHead: new Gauge({
      name: 'chain_head_block',
      help: 'The newest block the network’s node reported in the last round',
      labelNames: ['network'],
      registers: on('watcher'),
    }),
    chainLag: new Gauge({
      name: 'chain_unread_blocks',
      help: 'Blocks between the head and the last block read (0 when the watcher keeps up)',
      labelNames: ['network'],
      registers: on('watcher'),
    }),
    chainConfirming: new Gauge({
      name: 'chain_confirming_deposits',
      help: 'Deposits seen on chain and waiting for their confirmations (the confirmations backlog)',
      labelNames: ['network'],
      registers: on('watcher'),
    }),
    chainDeposits: new Counter({
      name: 'chain_deposits_total',
      help: 'Chain deposits by outcome: credited, held (for an operator), dropped (left the chain before confirmed)',
      labelNames: ['network', 'outcome'],
      registers: on('watcher'),
    }),
    chainRoundFailures: new Counter({
      name: 'chain_round_failures_total',
      help: 'Watcher rounds that failed (node or database unreachable); the next round retries',
      labelNames: ['network'],
      registers: on('watcher'),
    }),
    chainLastRound: new Gauge({
      name: 'chain_last_round_timestamp_seconds',
      help: 'When the leading watcher last completed a round',
      labelNames: ['network'],
      registers: on('watcher'),
    }),
    chainLeading: new Gauge({
      name: 'chain_watcher_leading',
      help: 'Whether this process is the network’s active watcher (1) or a standby (0)',
      labelNames: ['network'],
      registers: on('watcher'),
    }),
  };
}
