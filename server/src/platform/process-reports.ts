import os from 'node:os';
import type { ProcessReport } from '@shared/bus';
import type { Bus } from '@infra/bus';
import type { Logger } from '@infra/logger';

/**
 * The operators' live figures across processes. Each process sends a `process` report over the
 * bus every 2 s (its gateway's sockets and the ticks it heard, its settlement lag over the last
 * minute); every api process keeps the newest report of each sender and forgets a sender silent
 * for 10 s. The dashboard (GET /api/ops/dashboard) adds them up. Prometheus scrapes the same
 * figures per process (/metrics); this is the console's view, without a metrics stack.
 */

export const reportEveryMs = 2000;
export const reportStaleMs = 10_000;

/** The settlement lags of the last minute, for p50 and p99 (nearest rank). */
export function lagWindow(o: { windowMs?: number; cap?: number; now?: () => number } = {}) {
  const windowMs = o.windowMs ?? 60_000;
  // Past the cap the oldest samples go first: a burst of 10 000 settlements a second keeps the
  // newest ones, which is what the p99 of "the last minute" is about.
  const cap = o.cap ?? 20_000;
  const now = o.now ?? Date.now;
  let samples: { at: number; ms: number }[] = [];
  const fresh = () => {
    const since = now() - windowMs;
    if (samples.length && samples[0]!.at < since) samples = samples.filter((s) => s.at >= since);
    return samples;
  };
  return {
    add: (ms: number) => {
      samples.push({ at: now(), ms });
      if (samples.length > cap) samples.splice(0, samples.length - cap);
    },
    read: (): NonNullable<ProcessReport['settlement']> => {
      const sorted = fresh()
        .map((s) => s.ms)
        .sort((a, b) => a - b);
      const rank = (p: number) =>
        sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! : 0;
      return { settledLastMinute: sorted.length, lagP50Ms: rank(0.5), lagP99Ms: rank(0.99) };
    },
  };
}

/** Counts events and gives their rate since the last reading. */
export function rateMeter(now: () => number = Date.now) {
  let count = 0;
  let since = now();
  return {
    mark() {
      count++;
    },
    perSecond() {
      const t = now();
      const rate = t > since ? (count * 1000) / (t - since) : 0;
      count = 0;
      since = t;
      return Math.round(rate * 10) / 10;
    },
  };
}

/** Sends this process's report every `everyMs` (the first one at once). */
export function startProcessReporter(o: {
  bus: Pick<Bus, 'publish'>;
  role: ProcessReport['role'];
  gateway?: () => NonNullable<ProcessReport['gateway']>;
  settlement?: () => NonNullable<ProcessReport['settlement']>;
  log?: Logger;
  everyMs?: number;
  now?: () => number;
  /** host:pid unless told (tests run several "processes" in one). */
  id?: string;
}): { stop: () => void } {
  const now = o.now ?? Date.now;
  const id = o.id ?? `${os.hostname()}:${process.pid}`;
  const send = () => {
    const report: ProcessReport = { id, role: o.role, at: now() };
    if (o.gateway) report.gateway = o.gateway();
    if (o.settlement) report.settlement = o.settlement();
    o.bus.publish({ type: 'process', report }).catch((err: unknown) => {
      // A bus that is down loses a report; the next one comes in 2 s.
      o.log?.debug({ err: String(err) }, 'process report not sent');
    });
  };
  send();
  const timer = setInterval(send, o.everyMs ?? reportEveryMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

export type LiveFigures = {
  gateways: { id: string; sockets: number; ticksPerSecond: number }[];
  sockets: number;
  ticksPerSecond: number | null;
  settlement: NonNullable<ProcessReport['settlement']> | null;
  processes: number;
};

/**
 * The newest report of every process heard in the last `staleMs`, added up. A sender's clock is
 * not trusted for staleness: a report counts from when it arrived.
 */
export async function processBoard(
  bus: Pick<Bus, 'subscribe'>,
  o: { staleMs?: number; now?: () => number } = {},
) {
  const staleMs = o.staleMs ?? reportStaleMs;
  const now = o.now ?? Date.now;
  const latest = new Map<string, { report: ProcessReport; heard: number }>();
  const off = await bus.subscribe('process', ({ report }) => {
    latest.set(report.id, { report, heard: now() });
  });
  return {
    figures(): LiveFigures {
      const since = now() - staleMs;
      const reports: ProcessReport[] = [];
      for (const [id, { report, heard }] of latest)
        if (heard < since) latest.delete(id);
        else reports.push(report);
      const gateways = reports
        .filter((r) => r.gateway)
        .map((r) => ({ id: r.id, ...r.gateway! }))
        .sort((a, b) => a.id.localeCompare(b.id));
      const settling = reports.flatMap((r) => (r.settlement ? [r.settlement] : []));
      return {
        gateways,
        sockets: gateways.reduce((n, g) => n + g.sockets, 0),
        ticksPerSecond: gateways.length ? Math.max(...gateways.map((g) => g.ticksPerSecond)) : null,
        // Several settling processes: the counts add up; the lags shown are the worst ones (an
        // exact p99 over processes would need their samples, and the worst is what to act on).
        settlement: settling.length
          ? {
              settledLastMinute: settling.reduce((n, s) => n + s.settledLastMinute, 0),
              lagP50Ms: Math.max(...settling.map((s) => s.lagP50Ms)),
              lagP99Ms: Math.max(...settling.map((s) => s.lagP99Ms)),
            }
          : null,
        processes: reports.length,
      };
    },
    close: off,
  };
}

export type ProcessBoard = Awaited<ReturnType<typeof processBoard>>;
