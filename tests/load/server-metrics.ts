/**
 * The server's own figures, read from the Prometheus listeners (METRICS_PORT) of the processes
 * under test once a second for the whole run, not only at its ends: a stall or a GC between two
 * readings would otherwise pass unseen, or come out as a negative cost.
 */

export interface Sample {
  name: string;
  labels: string;
  value: number;
}

/** Prometheus text exposition → samples (`name{labels} value [timestamp]`); comments skipped. */
export function parsePrometheusSamples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const value = Number(m[3]);
    if (Number.isFinite(value)) out.push({ name: m[1]!, labels: m[2] ?? '', value });
  }
  return out;
}

/** Sum of a metric's samples, optionally only those whose labels include `label` (`event="tick"`). */
export function sumOf(samples: Sample[], name: string, label?: string): number | null {
  let sum: number | null = null;
  for (const s of samples)
    if (s.name === name && (!label || s.labels.includes(label))) sum = (sum ?? 0) + s.value;
  return sum;
}

/**
 * The largest of a metric's samples: a gateway of several processes exports one per process
 * (`process` label), and its event loop is as late as its latest worker's.
 */
export function maxOf(samples: Sample[], name: string): number | null {
  let max: number | null = null;
  for (const s of samples) if (s.name === name) max = Math.max(max ?? s.value, s.value);
  return max;
}

/** The figures kept per reading; each null when the process does not export it. */
export interface Reading {
  /** ms since the run's start */
  t: number;
  cpuSec: number | null;
  rssBytes: number | null;
  heapBytes: number | null;
  eventLoopP99Sec: number | null;
  /** The longest event-loop delay since the previous reading (prom-client resets it on each). */
  eventLoopMaxSec: number | null;
  sockets: number | null;
  tickDeliveries: number | null;
  deliveries: number | null;
  /** Ticks this process's clients had received when the reading came back (for the loss count). */
  clientTicks?: number;
}

export function readingOf(samples: Sample[], t: number): Reading {
  return {
    t,
    cpuSec: sumOf(samples, 'process_cpu_seconds_total'),
    rssBytes: sumOf(samples, 'process_resident_memory_bytes'),
    heapBytes: sumOf(samples, 'nodejs_heap_size_used_bytes'),
    // CPU, memory, sockets and deliveries add up over a gateway's processes; delay does not.
    eventLoopP99Sec: maxOf(samples, 'nodejs_eventloop_lag_p99_seconds'),
    eventLoopMaxSec: maxOf(samples, 'nodejs_eventloop_lag_max_seconds'),
    sockets: sumOf(samples, 'gateway_connected_sockets'),
    tickDeliveries: sumOf(samples, 'gateway_deliveries_total', 'event="tick"'),
    deliveries: sumOf(samples, 'gateway_deliveries_total'),
  };
}

export type Scrape =
  { ok: true; reading: Reading; role: string | null } | { ok: false; why: string };

/**
 * A reading asked for during a freeze of the server is answered after it, and holds the freeze
 * as its longest event-loop delay (prom-client resets that figure on every read): the timeout is
 * long so that such a reading is kept, not abandoned.
 */
export async function scrape(url: string, t: number): Promise<Scrape> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) return { ok: false, why: `${url} answered ${res.status}` };
    const text = await res.text();
    const role = /\brole="([a-z]+)"/.exec(text)?.[1] ?? null;
    return { ok: true, reading: readingOf(parsePrometheusSamples(text), t), role };
  } catch (err) {
    return { ok: false, why: `${url}: ${(err as Error).message}` };
  }
}

export interface TargetSeries {
  url: string;
  role: string | null;
  readings: Reading[];
  errors: string[];
}

/** Reads every URL once a second until stopped; `mark()` takes a reading now (window edges). */
export function startScraper(
  urls: string[],
  t0: number,
  clientTicks: () => number,
  everyMs = 1000,
) {
  const series: TargetSeries[] = urls.map((url) => ({ url, role: null, readings: [], errors: [] }));
  const readAll = () =>
    Promise.all(
      series.map(async (s) => {
        const r = await scrape(s.url, Date.now() - t0);
        if (r.ok) {
          s.readings.push({ ...r.reading, clientTicks: clientTicks() });
          s.role = r.role;
        } else if (s.errors.length < 5) s.errors.push(r.why);
        return r;
      }),
    );
  let busy: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    busy = busy.then(readAll);
  }, everyMs);
  return {
    series,
    mark: () => (busy = busy.then(readAll)),
    async stop() {
      clearInterval(timer);
      await busy;
      return series;
    },
  };
}

export interface ServerFigures {
  url: string;
  role: string | null;
  readings: number;
  /** CPU over the measured window, % of one core. */
  cpuPct: number | null;
  eventLoopP99MaxMs: number | null;
  /** The longest single event-loop delay in the window: a freeze of the process shows here. */
  eventLoopMaxMs: number | null;
  socketsMax: number | null;
  deliveriesPerSec: number | null;
  /** `tick` deliveries the server counted between the window's edges. */
  tickDeliveries: number | null;
  /** Those deliveries minus the ticks this run's clients received meanwhile (≥ 0). */
  loss: number | null;
  /** Heap per connection: lowest reading loaded − lowest idle reading, ÷ connections. */
  heapPerConnKiB: number | null;
  note?: string;
}

const lowest = (rs: Reading[], k: keyof Reading) => {
  const v = rs.map((r) => r[k]).filter((x): x is number => x !== null);
  return v.length ? Math.min(...v) : null;
};

/**
 * One target's figures over the window [from, to] (ms since start). Memory compares the lowest
 * heap reading before any connection with the lowest while they were all open: the lowest
 * readings are those just after a GC, so garbage does not count and the figure cannot come out
 * negative from a collection between two readings. When it still does, no figure is given.
 */
export function serverFigures(
  s: TargetSeries,
  window: { idleBefore: number; from: number; to: number },
  connections: number,
): ServerFigures {
  const idle = s.readings.filter((r) => r.t <= window.idleBefore);
  const inside = s.readings.filter((r) => r.t >= window.from && r.t <= window.to + 1500);
  const first = inside[0];
  const last = inside.at(-1);
  const span = first && last ? (last.t - first.t) / 1000 : 0;
  const delta = (k: keyof Reading) => {
    const a = first?.[k];
    const b = last?.[k];
    return a === null || b === null || a === undefined || b === undefined ? null : b - a;
  };
  const notes: string[] = [...s.errors.slice(0, 1)];
  let heapPerConnKiB: number | null = null;
  const idleHeap = lowest(idle, 'heapBytes');
  const loadedHeap = lowest(inside, 'heapBytes');
  // Only for a process that holds sockets (a gateway, or the embedded app).
  const holdsSockets = s.readings.some((r) => r.sockets !== null);
  if (holdsSockets && idleHeap !== null && loadedHeap !== null && connections > 0) {
    const per = (loadedHeap - idleHeap) / connections / 1024;
    if (per > 0) heapPerConnKiB = per;
    else notes.push('heap per connection not measurable (the heap shrank: a GC outweighed them)');
  }
  const cpu = delta('cpuSec');
  const deliveries = delta('deliveries');
  const maxOf = (k: keyof Reading) => {
    const v = inside.map((r) => r[k]).filter((x): x is number => x !== null);
    return v.length ? Math.max(...v) : null;
  };
  const lag = maxOf('eventLoopP99Sec');
  const lagMax = maxOf('eventLoopMaxSec');
  return {
    url: s.url,
    role: s.role,
    readings: s.readings.length,
    cpuPct: cpu !== null && span > 0 ? (100 * cpu) / span : null,
    eventLoopP99MaxMs: lag === null ? null : lag * 1000,
    eventLoopMaxMs: lagMax === null ? null : lagMax * 1000,
    socketsMax: maxOf('sockets'),
    deliveriesPerSec: deliveries !== null && span > 0 ? deliveries / span : null,
    tickDeliveries: delta('tickDeliveries'),
    loss: (() => {
      const d = delta('tickDeliveries');
      const got = delta('clientTicks');
      return d === null || got === null ? null : Math.max(0, d - got);
    })(),
    heapPerConnKiB,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}
