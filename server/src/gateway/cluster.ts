import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { Logger } from '@infra/logger';
import { createGatewayPrimaryMetrics } from '@server/platform/metrics';

/**
 * GATEWAY_PROCESSES: several gateway processes on one port (Node's cluster module; the primary
 * hands each new connection to a worker in turn). A websocket-only client stays on the process
 * it connected to, so no stickiness is needed; each worker subscribes to the bus and the Redis
 * adapter on its own, exactly as separate gateways do.
 *
 * The primary runs no gateway: it forks the workers, replaces one that dies, answers /readyz and
 * /metrics for all of them (asked by whichever worker the probe reached), and on SIGTERM drains
 * every worker before it exits.
 *
 * Each worker holds a slot, 1…N, kept by its replacement: its series carry it as the `process`
 * label (so the aggregated /metrics keeps each worker apart, and a replaced worker continues its
 * slot's series), and the primary adds `gateway_process_up` and `gateway_process_restarts_total`
 * per slot.
 */

/** How the primary tells a worker its slot: its environment (config.ts reads it). */
const SLOT_VARIABLE = 'GATEWAY_PROCESS_SLOT';

/** `auto` = one per core; else the number. */
export function gatewayProcesses(setting: string): number {
  return setting === 'auto' ? os.availableParallelism() : Number(setting);
}

type Question = 'ready' | 'metrics';
type ToPrimary =
  { gw: 'ask'; id: number; question: Question } | { gw: 'ready'; id: number; ready: boolean };
type ToWorker =
  { gw: 'answer'; id: number; value: string | boolean } | { gw: 'ready?'; id: number };

const isMessage = (m: unknown): m is { gw: string; id: number } =>
  typeof m === 'object' && m !== null && 'gw' in m;

/** How long the primary waits for the workers' answers. */
const ASK_TIMEOUT_MS = 3_000;
/** A worker that died is replaced after this (longer each time it dies again soon). */
const RESTART_DELAY_MS = 500;

export interface PrimaryOptions {
  processes: number;
  log: Logger;
  /** Each worker's own drain bound (SHUTDOWN_TIMEOUT_MS); the primary waits a little more. */
  shutdownTimeoutMs: number;
}

/** The primary: never returns; exits 0 once every worker has drained after a SIGTERM. */
export function runGatewayPrimary(o: PrimaryOptions): void {
  const aggregator = new AggregatorRegistry();
  const own = createGatewayPrimaryMetrics();
  let stopping = false;
  let nextId = 1;
  const readyAnswers = new Map<number, { answers: Map<number, boolean>; done: () => void }>();
  const recentDeaths: number[] = [];
  /** The slot of each live worker, by cluster worker id. */
  const slots = new Map<number, number>();

  const fork = (slot: number) => {
    const label = { process: String(slot) };
    own.processUp.set(label, 0);
    // From the start at 0: a counter series born at its first increment hides it from increase().
    own.processRestarts.inc(label, 0);
    const worker = cluster.fork({ [SLOT_VARIABLE]: label.process });
    slots.set(worker.id, slot);
    worker.on('message', (m: unknown) => onMessage(worker, m));
    // Listening (its gateway port, then its metrics listener): serving, not merely started.
    worker.on('listening', () => own.processUp.set(label, 1));
  };

  /** True when every worker there should be is up and says it is ready. */
  const allReady = async (): Promise<boolean> => {
    const workers = Object.values(cluster.workers ?? {}).filter(
      (w): w is Worker => !!w && w.isConnected(),
    );
    if (workers.length < o.processes) return false;
    const id = nextId++;
    const answers = new Map<number, boolean>();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ASK_TIMEOUT_MS);
      readyAnswers.set(id, {
        answers,
        done: () => {
          if (answers.size < workers.length) return;
          clearTimeout(timer);
          resolve();
        },
      });
      for (const w of workers) w.send({ gw: 'ready?', id } satisfies ToWorker);
    });
    readyAnswers.delete(id);
    return answers.size >= o.processes && [...answers.values()].every(Boolean);
  };

  const onMessage = (worker: Worker, m: unknown) => {
    if (!isMessage(m)) return;
    const msg = m as ToPrimary;
    if (msg.gw === 'ready') {
      const pending = readyAnswers.get(msg.id);
      pending?.answers.set(worker.id, msg.ready);
      pending?.done();
      return;
    }
    if (msg.gw !== 'ask') return;
    const answer = (value: string | boolean) => {
      if (worker.isConnected()) worker.send({ gw: 'answer', id: msg.id, value } satisfies ToWorker);
    };
    if (msg.question === 'ready') void allReady().then(answer, () => answer(false));
    else {
      // The workers' series (each with its `process`), then the slots' own: those still say
      // which worker is missing when the workers cannot be asked.
      const workers = aggregator.clusterMetrics().catch((err: Error) => {
        o.log.warn({ err: err.message }, 'gateway metrics: a worker did not answer');
        return '';
      });
      void Promise.all([workers, own.registry.metrics()]).then(
        ([w, p]) => answer(w + p),
        () => answer(''),
      );
    }
  };

  cluster.on('exit', (worker, code, signal) => {
    const slot = slots.get(worker.id);
    slots.delete(worker.id);
    if (slot !== undefined) own.processUp.set({ process: String(slot) }, 0);
    if (stopping || slot === undefined) return;
    o.log.error(
      { pid: worker.process.pid, code, signal, slot },
      'gateway worker died; starting another',
    );
    const now = Date.now();
    recentDeaths.push(now);
    while (recentDeaths[0]! < now - 60_000) recentDeaths.shift();
    setTimeout(() => {
      own.processRestarts.inc({ process: String(slot) });
      fork(slot);
    }, RESTART_DELAY_MS * recentDeaths.length).unref();
  });

  const stop = (signal: string) => {
    if (stopping) {
      o.log.warn({ signal }, 'second signal, exiting now');
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    stopWorkers(signal, o);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  o.log.info({ processes: o.processes }, 'starting gateway workers');
  for (let slot = 1; slot <= o.processes; slot++) fork(slot);
}

/**
 * Asks every worker to drain (SIGTERM), kills those still running past their bound, and exits
 * 0 once all of them stopped cleanly.
 */
function stopWorkers(signal: string, o: PrimaryOptions): void {
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
  o.log.info({ signal, workers: workers.length }, 'shutting down the gateway workers');
  const codes = workers.map(
    (w) =>
      new Promise<number | string>((resolve) => {
        if (w.isDead()) return resolve(w.process.exitCode ?? 0);
        w.once('exit', (code, sig) => resolve(code ?? sig));
        w.process.kill('SIGTERM');
      }),
  );
  const deadline = setTimeout(() => {
    o.log.error('gateway workers did not stop in time; killing them');
    for (const w of workers) if (!w.isDead()) w.process.kill('SIGKILL');
  }, o.shutdownTimeoutMs + 2_000);
  void Promise.all(codes).then((all) => {
    clearTimeout(deadline);
    const clean = all.every((c) => c === 0);
    o.log.info({ exits: all }, clean ? 'stopped' : 'stopped, not every worker cleanly');
    process.exit(clean ? 0 : 1);
  });
}

/**
 * A worker's link to the primary: answers its readiness questions with `ready`, lets prom-client
 * answer for `registry`, and asks the primary about the whole set.
 */
export function workerLink(registry: Registry, ready: () => boolean | Promise<boolean>) {
  // Constructed in a worker, prom-client answers the primary's metric requests from `registry`.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  let nextId = 1;
  const waiting = new Map<number, (v: string | boolean) => void>();
  process.on('message', (m: unknown) => {
    if (!isMessage(m)) return;
    const msg = m as ToWorker;
    if (msg.gw === 'answer') {
      waiting.get(msg.id)?.(msg.value);
      waiting.delete(msg.id);
    } else if (msg.gw === 'ready?')
      void Promise.resolve()
        .then(ready)
        .catch(() => false)
        .then((ok) => process.send?.({ gw: 'ready', id: msg.id, ready: ok } satisfies ToPrimary));
  });
  const ask = (question: Question) =>
    new Promise<string | boolean>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the primary did not answer ${question}`));
      }, ASK_TIMEOUT_MS + 1_000);
      waiting.set(id, (v) => {
        clearTimeout(timer);
        resolve(v);
      });
      process.send?.({ gw: 'ask', id, question } satisfies ToPrimary);
    });
  return {
    /** Every worker up and ready (for /readyz). */
    allReady: async () => (await ask('ready')) === true,
    /**
     * /metrics of every worker (each series labelled with its worker's `process`, so nothing is
     * summed across workers), then the primary's own per slot.
     */
    metrics: async () => String(await ask('metrics')),
    contentType: registry.contentType,
  };
}
