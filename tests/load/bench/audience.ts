import type { Histogram } from 'hdr-histogram-js';
import type { Tick } from '@shared/market/model';
import { newHistogram } from '../results';
import { summarize, type LatencySummary } from '../report';
import { LightClient, type LightClientSink } from '../wire';

/**
 * The subscribers of one benchmark phase: light clients (tests/load/wire.ts), all in this
 * process, each subscribed to the same channels. Counts receipts and records tick latency
 * (tick.ts, stamped by the publisher → receipt here, µs) inside a measurement window.
 */
export class Audience {
  readonly clients: LightClient[] = [];
  readonly n = { connected: 0, subscribed: 0, failed: 0, drops: 0 };
  /** Receipts inside the window. */
  readonly got = { ticks: 0, snapshots: 0 };
  readonly failures: Record<string, number> = {};
  private measuring = false;
  private closing = false;
  private readonly tickHist = newHistogram();
  private readonly snapHist = newHistogram();
  private readonly firstHist = newHistogram();
  private highestSeq = -1;
  /** Since the last `takeRecent()`, for the progress line. */
  private readonly recent = newHistogram();
  negative = 0;

  private readonly sink: LightClientSink = {
    connected: () => void this.n.connected++,
    subscribed: (_c, answer) => {
      if (typeof answer === 'object' && answer !== null && 'ok' in answer) this.n.subscribed++;
      else this.fail(`subscribe refused: ${JSON.stringify(answer)}`);
    },
    tick: (_c, tick: Tick, at) => {
      if (!this.measuring) return;
      this.got.ticks++;
      this.record(this.tickHist, at - tick.ts);
      if (tick.seq > this.highestSeq) {
        this.highestSeq = tick.seq; // one product per run: the first receipt of this tick
        this.record(this.firstHist, at - tick.ts, false);
      }
    },
    market: (_c, ts, at) => {
      if (!this.measuring) return;
      this.got.snapshots++;
      this.record(this.snapHist, at - ts, false);
    },
    failed: (_c, reason) => {
      this.n.failed++;
      this.fail(reason);
    },
    closed: () => {
      if (!this.closing) this.n.drops++;
    },
  };

  constructor(
    private readonly url: string,
    private readonly channels: string[],
  ) {}

  private fail(reason: string): void {
    this.failures[reason] = (this.failures[reason] ?? 0) + 1;
  }

  private record(h: Histogram, ms: number, recent = true): void {
    if (ms < 0) {
      this.negative++;
      ms = 0;
    }
    const us = Math.round(ms * 1000);
    h.recordValue(us);
    if (recent) this.recent.recordValue(us);
  }

  /**
   * Opens `count` clients at `perSec`, and resolves once every one is subscribed or failed, or at
   * `timeoutMs`. `progress` is called once a second meanwhile.
   */
  async open(
    count: number,
    perSec: number,
    timeoutMs: number,
    progress: () => void,
  ): Promise<void> {
    const t0 = performance.now();
    const ramp = setInterval(() => {
      const due = Math.min(count, Math.floor((perSec * (performance.now() - t0)) / 1000) + 1);
      while (this.clients.length < due)
        this.clients.push(new LightClient({ url: this.url, channels: this.channels }, this.sink));
    }, 10);
    const tick = setInterval(progress, 1000);
    try {
      while (this.n.subscribed + this.n.failed < count && performance.now() - t0 < timeoutMs)
        await new Promise((r) => setTimeout(r, 50));
    } finally {
      clearInterval(ramp);
      clearInterval(tick);
    }
  }

  startWindow(): void {
    this.got.ticks = 0;
    this.got.snapshots = 0;
    this.tickHist.reset();
    this.snapHist.reset();
    this.firstHist.reset();
    this.recent.reset();
    this.measuring = true;
  }

  stopWindow(): void {
    this.measuring = false;
  }

  get deliveries(): number {
    return this.got.ticks + this.got.snapshots;
  }

  /** Tick p99 (ms) since the last call, or null without samples. */
  takeRecentP99(): number | null {
    const p = this.recent.totalCount ? this.recent.getValueAtPercentile(99) / 1000 : null;
    this.recent.reset();
    return p;
  }

  tickLatency(): LatencySummary {
    return summarize(this.tickHist);
  }

  firstReceiptLatency(): LatencySummary {
    return summarize(this.firstHist);
  }

  snapshotLatency(): LatencySummary {
    return summarize(this.snapHist);
  }

  /** Polite close, bounded: what has not closed in 3 s is terminated. */
  async close(): Promise<void> {
    this.closing = true;
    this.measuring = false;
    for (const c of this.clients) c.close();
    const grace = new Promise((r) => setTimeout(r, 3000).unref());
    await Promise.race([Promise.all(this.clients.map((c) => c.whenClosed())), grace]);
    for (const c of this.clients) c.terminate();
  }
}
