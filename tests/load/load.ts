import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { Tick } from '@shared/market';
import {
  formatReport,
  newHistogram,
  scrapeMetrics,
  serverCost,
  summarize,
  type LoadReport,
} from './report';
import { openSampleClients } from './sample';
import { LightClient, nowMs, type LightClientSink } from './wire';
import { assertTarget, parseLoadArgs, usage, type LoadOptions } from './args';

export type { LoadReport } from './report';
export type { LoadOptions } from './args';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isOk = (answer: unknown) => typeof answer === 'object' && answer !== null && 'ok' in answer;

/** Opens the clients, measures for `durationSec`, closes everything, and reports. */
export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  assertTarget(o.url, o.allowRemote);
  if (o.metricsUrl) assertTarget(o.metricsUrl, o.allowRemote);
  const log = o.progress ?? ((line: string) => console.log(line));
  const cpu0 = process.cpuUsage();
  const tStart = nowMs(); // CPU share covers the whole call: setup, run and close
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();

  const metricsStart = o.metricsUrl ? await scrapeMetrics(o.metricsUrl) : null;
  const sample = o.sample > 0 ? await openSampleClients(o.url, o.channels, o.sample) : null;

  // Reset when the ramp is over, so the figures describe steady state (see `steady` below).
  const tickHist = newHistogram();
  const firstHist = newHistogram(); // per tick, its earliest receipt: the path without fan-out
  const snapHist = newHistogram();
  const tickWindow = newHistogram(); // the last second, for the progress line
  const connectHist = newHistogram();
  const highestSeq = new Map<string, number>();
  const n = { connected: 0, failed: 0, subOk: 0, subFailed: 0, disconnects: 0, skew: 0 };
  const d = { ticks: 0, snapshots: 0, initialTicks: 0, initialSnapshots: 0 };
  const failures: Record<string, number> = {};
  let stopping = false;
  // Off from the deadline on: deliveries during the metrics read and the close (while thousands
  // of sockets shut down in this process) would count time the run did not measure.
  let measuring = true;
  let steady = false;
  let lastConnectAt = 0;

  const latencyUs = (receivedAt: number, sentAt: number) => {
    const us = Math.round((receivedAt - sentAt) * 1000);
    if (us >= 0) return us;
    n.skew++; // sender clock ahead of ours: only possible across machines
    return 0;
  };

  // One sink for every client, so a client costs no closures of its own.
  const sink: LightClientSink = {
    connected(_c, ms) {
      n.connected++;
      lastConnectAt = nowMs();
      connectHist.recordValue(Math.round(ms * 1000));
    },
    subscribed(_c, answer) {
      if (isOk(answer)) n.subOk++;
      else n.subFailed++;
    },
    tick(c, tick: Tick, at) {
      if (!measuring) return;
      // The gateway answers a subscribe with the product's last tick, which can be up to a tick
      // interval old: it is a snapshot, not a delivery, and would skew the latency.
      if (!c.seen.has(tick.id)) {
        c.seen.add(tick.id);
        d.initialTicks++;
        return;
      }
      d.ticks++;
      const us = latencyUs(at, tick.ts);
      tickHist.recordValue(us);
      tickWindow.recordValue(us);
      // The gap between the first and the other receipts is the gateway's fan-out plus this
      // process working through the same broadcast on every socket.
      if (tick.seq > (highestSeq.get(tick.id) ?? -1)) {
        highestSeq.set(tick.id, tick.seq);
        firstHist.recordValue(us);
      }
    },
    market(c, ts, at) {
      if (!measuring) return;
      if (!c.seen.has('market')) {
        c.seen.add('market'); // likewise the snapshot sent on subscribe
        d.initialSnapshots++;
        return;
      }
      d.snapshots++;
      snapHist.recordValue(latencyUs(at, ts));
    },
    failed(_c, reason) {
      n.failed++;
      failures[reason] = (failures[reason] ?? 0) + 1;
    },
    closed() {
      if (!stopping) n.disconnects++;
    },
  };

  const clients: LightClient[] = [];
  const t0 = nowMs();
  const deadline = t0 + o.durationSec * 1000;
  let steadyAt = t0;
  let atSteady = { ...d };

  const rampTimer = setInterval(() => {
    const due = Math.min(o.clients, Math.floor((o.rampPerSec * (nowMs() - t0)) / 1000) + 1);
    while (clients.length < due) {
      const opts = { url: o.url, channels: o.channels, connectTimeoutMs: o.connectTimeoutMs };
      clients.push(new LightClient(opts, sink));
    }
  }, 20);

  let prev = { ...d };
  let prevAt = t0;
  const progress = () => {
    const now = nowMs();
    const per = 1000 / Math.max(1, now - prevAt); // rates per second, also for the last partial window
    const p99 = tickWindow.totalCount
      ? (tickWindow.getValueAtPercentile(99) / 1000).toFixed(2)
      : '-';
    log(
      `t=${((now - t0) / 1000).toFixed(1)}s connected ${n.connected}/${o.clients} failed ${n.failed}` +
        ` drops ${n.disconnects} | ticks/s ${Math.round((d.ticks - prev.ticks) * per)}` +
        ` snapshots/s ${Math.round((d.snapshots - prev.snapshots) * per)}` +
        ` | tick p99 ${p99} ms${steady ? '' : ' (ramping)'}`,
    );
    tickWindow.reset();
    prev = { ...d };
    prevAt = now;
  };
  const progressTimer = setInterval(() => {
    // Steady state: every client connected or failed, with at least a second left to measure.
    // Ramp-time samples (connects competing with deliveries) are dropped from then on.
    if (!steady && n.connected + n.failed >= o.clients && deadline - nowMs() >= 1000) {
      steady = true;
      steadyAt = nowMs();
      atSteady = { ...d };
      for (const h of [tickHist, firstHist, snapHist]) h.reset();
    }
    progress();
  }, 1000);

  // Bounded: the run ends at the deadline whatever the ramp did, or earlier on abort.
  while (nowMs() < deadline && !o.signal?.aborted) await sleep(Math.min(200, deadline - nowMs()));
  clearInterval(rampTimer);
  clearInterval(progressTimer);
  if (nowMs() - prevAt >= 100) progress();
  const tEnd = nowMs();
  measuring = false;

  // Read the server's figures while every connection is still open.
  const metricsEnd = o.metricsUrl ? await scrapeMetrics(o.metricsUrl) : null;
  stopping = true;
  const sampleReport = sample?.report() ?? null;
  sample?.close();
  for (const c of clients) c.close();
  // Bounded close: whatever has not closed after 3 s is terminated (the timer must not hold
  // the caller's process open).
  const grace = new Promise((r) => setTimeout(r, 3000).unref());
  await Promise.race([Promise.all(clients.map((c) => c.whenClosed())), grace]);
  for (const c of clients) c.terminate();
  loopDelay.disable();
  const cpu = process.cpuUsage(cpu0);
  const cpuWallSec = (nowMs() - tStart) / 1000;

  // Without a steady window (ramp unfinished), steadyAt is t0 and atSteady all zeros.
  const windowSec = (tEnd - steadyAt) / 1000 || 1;
  const base = atSteady;
  const rampSec = ((lastConnectAt || tEnd) - t0) / 1000;
  const wallSec = (tEnd - t0) / 1000;
  const cpuSec = (cpu.user + cpu.system) / 1e6;

  return {
    url: o.url,
    channels: o.channels,
    clients: o.clients,
    wallSec,
    connect: {
      connected: n.connected,
      failed: n.failed,
      failures,
      ratePerSec: rampSec > 0 ? n.connected / rampSec : 0,
      rampSec,
      latency: summarize(connectHist),
    },
    subscribe: { ok: n.subOk, failed: n.subFailed },
    deliveries: {
      ticks: d.ticks,
      snapshots: d.snapshots,
      initialTicks: d.initialTicks,
      steady,
      windowSec,
      ticksPerSec: (d.ticks - base.ticks) / windowSec,
      snapshotsPerSec: (d.snapshots - base.snapshots) / windowSec,
    },
    tickLatency: summarize(tickHist),
    firstReceiptLatency: summarize(firstHist),
    snapshotLatency: summarize(snapHist),
    errors: {
      disconnects: n.disconnects,
      subscribeFailures: n.subFailed,
      connectFailures: n.failed,
      clockSkew: n.skew,
    },
    sample: sampleReport,
    server:
      metricsStart && metricsEnd
        ? { ...serverCost(metricsStart, metricsEnd), perConnection: n.connected + o.sample }
        : null,
    loadProcess: {
      cpuSec,
      cpuPctOfOneCore: (100 * cpuSec) / cpuWallSec,
      rssMb: process.memoryUsage().rss / 2 ** 20,
      eventLoopP99Ms: loopDelay.percentile(99) / 1e6,
    },
  };
}

async function main(): Promise<number> {
  if (process.argv.includes('--help')) {
    console.log(usage);
    return 0;
  }
  let options: LoadOptions;
  try {
    options = parseLoadArgs(process.argv.slice(2));
    assertTarget(options.url, options.allowRemote);
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  const report = await runLoad({ ...options, signal: abort.signal });
  console.log(formatReport(report));
  const limited = report.connect.failures['connect_error RATE_LIMITED'] ?? 0;
  if (limited)
    console.log(
      `\n${limited} connections were refused RATE_LIMITED: the server limits sockets per client ` +
        'address, and every client of this run comes from this one. Start the server under test ' +
        'with SOCKET_CONNECT_RATE=off SOCKET_MAX_PER_ADDRESS=off (or limits above --clients).',
    );
  // Slow is a figure, not a failure; only a run where nothing connected failed as a tool.
  return report.connect.connected > 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
