import type { LatencySummary } from '../report';

/** What one benchmark phase measured, and how the rows and ratios are printed. */

export type ServerId = 'a' | 'b' | 'c';

export const serverLabels: Record<ServerId, string> = {
  a: '(a) plain Socket.IO',
  b: '(b) floor: raw ws',
  c: '(c) our gateway',
};

export interface PhaseResult {
  id: ServerId;
  subscribers: number;
  subscribed: number;
  failed: number;
  drops: number;
  /** heapUsed after N idle subscribed connections minus before, after a full GC, ÷ N; bytes. */
  heapPerConn: number;
  rssPerConn: number;
  externalPerConn: number;
  windowSec: number;
  /** Messages the subscribers received inside the window (a cross-check of `sent`). */
  received: number;
  /** Messages published inside the window × subscribers: the deliveries the server made. */
  sent: number;
  /** Server process CPU (user + system) over the window ÷ `sent`. */
  cpuUsPerDelivery: number;
  /** The kernel's part of it (system time). */
  systemUsPerDelivery: number;
  serverCpuPct: number;
  benchCpuPct: number;
  tick: LatencySummary;
  /** Per tick, its earliest receipt: publisher → Redis → server → first socket. */
  firstReceipt: LatencySummary;
  snapshot: LatencySummary;
  loadAvg: { before: number; after: number };
}

/** The aim for (c). */
export const aim = {
  cpuVsPlain: 1 / 3,
  cpuVsFloor: 1.5,
  p99Ms: 10,
  heapPerConnBytes: 6000,
} as const;

export interface Ratios {
  cpu: number;
  /** CPU per delivery outside the kernel (user time): the part the server's own code decides. */
  userCpu: number;
  p50: number;
  p99: number;
  heap: number;
}

const div = (a: number, b: number) => (b > 0 ? a / b : NaN);

export function ratios(c: PhaseResult, other: PhaseResult): Ratios {
  return {
    cpu: div(c.cpuUsPerDelivery, other.cpuUsPerDelivery),
    userCpu: div(
      c.cpuUsPerDelivery - c.systemUsPerDelivery,
      other.cpuUsPerDelivery - other.systemUsPerDelivery,
    ),
    p50: div(c.tick.p50, other.tick.p50),
    p99: div(c.tick.p99, other.tick.p99),
    heap: div(c.heapPerConn, other.heapPerConn),
  };
}

const f = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '-');
const pad = (s: string, n: number) => s.padStart(n);

export function formatRow(r: PhaseResult): string {
  return [
    serverLabels[r.id].padEnd(22),
    pad(f(r.cpuUsPerDelivery), 9),
    pad(`${f(r.cpuUsPerDelivery - r.systemUsPerDelivery)}/${f(r.systemUsPerDelivery)}`, 12),
    pad(f(r.tick.p50), 8),
    pad(f(r.tick.p99), 8),
    pad(f(r.tick.max), 8),
    pad(f(r.heapPerConn / 1000, 2), 9),
    pad(f(r.rssPerConn / 1000, 1), 8),
    pad(f(r.firstReceipt.p99), 8),
    pad(`${r.received}/${r.sent}`, 15),
    pad(f(r.serverCpuPct, 0), 6),
    pad(f(r.snapshot.p99), 8),
    pad(`${f(r.loadAvg.before, 1)}→${f(r.loadAvg.after, 1)}`, 10),
  ].join(' ');
}

export const header = [
  'server'.padEnd(22),
  pad('µs/deliv', 9),
  pad('user/sys', 12),
  pad('p50 ms', 8),
  pad('p99 ms', 8),
  pad('max ms', 8),
  pad('heap KB/c', 9),
  pad('RSS KB/c', 8),
  pad('1st p99', 8),
  pad('received/sent', 15),
  pad('CPU%', 6),
  pad('snap p99', 8),
  pad('load avg', 10),
].join(' ');

export function formatResults(rows: PhaseResult[]): string {
  const lines = [header, ...rows.map(formatRow)];
  const by = new Map(rows.map((r) => [r.id, r]));
  const c = by.get('c');
  for (const id of ['a', 'b'] as const) {
    const o = by.get(id);
    if (!c || !o) continue;
    const r = ratios(c, o);
    lines.push(
      `(c)/(${id})  CPU per delivery ${f(r.cpu)}× (user-space part ${f(r.userCpu)}×), p50 ${f(r.p50)}×, p99 ${f(r.p99)}×, heap per connection ${f(r.heap)}×`,
    );
  }
  if (c) {
    const a = by.get('a');
    const b = by.get('b');
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const checks = [
      a && `CPU ≤ ⅓ of (a): ${verdict(c.cpuUsPerDelivery <= a.cpuUsPerDelivery * aim.cpuVsPlain)}`,
      b && `CPU ≤ 1.5× (b): ${verdict(c.cpuUsPerDelivery <= b.cpuUsPerDelivery * aim.cpuVsFloor)}`,
      `p99 ≤ ${aim.p99Ms} ms: ${verdict(c.tick.p99 <= aim.p99Ms)}`,
      `heap ≤ 6 KB/connection: ${verdict(c.heapPerConn <= aim.heapPerConnBytes)}`,
    ].filter(Boolean);
    lines.push(`aim for (c): ${checks.join('; ')}`);
  }
  const notes = rows.flatMap((r) => {
    const out: string[] = [];
    if (r.subscribed < r.subscribers)
      out.push(`${serverLabels[r.id]}: only ${r.subscribed}/${r.subscribers} subscribed`);
    if (r.drops) out.push(`${serverLabels[r.id]}: ${r.drops} connections dropped`);
    if (r.received < r.sent * 0.9)
      out.push(`${serverLabels[r.id]}: received ${r.received} of ${r.sent} sent in the window`);
    return out;
  });
  return [...lines, ...notes].join('\n');
}
