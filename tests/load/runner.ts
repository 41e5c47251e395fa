import os from 'node:os';
import type { Tick } from '@shared/market/model';
import {
  encodeHistogram,
  histogramNames,
  newHistogram,
  zeroCounters,
  type HistogramName,
  type ProcessResult,
  type SecondRow,
} from './results';
import { openSampleClients } from './sample';
import { planSlots, rampsEndMs, totalSeconds, type Scenario, type Slot } from './scenario';
import { startScraper, type TargetSeries } from './server-metrics';
import { SilenceTracker } from './silence';
import { gatewayClock } from './gateway-clock';
import { watchLoadProcess } from './load-process';
import { startTraders, type TraderRun } from './traders';
import { LightClient, nowMs, type LightClientSink } from './wire';

/** How one process takes part: its share of the plan, and what it reports as it goes. */
export interface RunShare {
  index: number;
  of: number;
  progress: (line: string) => void;
  signal?: AbortSignal;
  /** Scrape the scenario's metrics URLs (one process of a run does). */
  scrape: boolean;
  /** The caller knows the simulator runs inside the measured server (npm start). */
  embedded?: boolean;
  /** For the traders' invitations and funding: the environment's, never the scenario's. */
  operatorToken?: string;
}

export interface ProcessRun {
  result: ProcessResult;
  /** The metrics readings, with the window's edges in ms since `epoch`. */
  scraped: { series: TargetSeries[]; window: { idleBefore: number; from: number; to: number } };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isOk = (answer: unknown) => typeof answer === 'object' && answer !== null && 'ok' in answer;
const bump = (r: Record<string, number>, k: string) => (r[k] = (r[k] ?? 0) + 1);

/** Runs this process's share of a scenario to its end and returns what it measured. */
export async function runShare(scn: Scenario, share: RunShare): Promise<ProcessRun> {
  const log = share.progress;
  const self = watchLoadProcess();
  const c = zeroCounters();
  const connectFailures: Record<string, number> = {};
  const subscribeErrors: Record<string, number> = {};
  const orderErrors: Record<string, number> = {};
  const hist = Object.fromEntries(histogramNames.map((n) => [n, newHistogram()])) as Record<
    HistogramName,
    ReturnType<typeof newHistogram>
  >;
  const second = newHistogram();
  const warnings: string[] = [];
  let measuring = true;
  let received = 0; // every tick any client of this process got, for the server's loss count

  const epoch = Date.now();
  let sample: Awaited<ReturnType<typeof openSampleClients>> | null = null;
  // The sample sockets' ticks count too: the server delivered them as well.
  const clientTicks = () => received + (sample?.report().ticks ?? 0);
  const scraper =
    share.scrape && scn.metrics.length ? startScraper(scn.metrics, epoch, clientTicks) : null;
  if (scraper) for (let i = 0; i < 3; i++) await scraper.mark().then(() => sleep(200)); // idle readings
  const idleBefore = Date.now() - epoch;

  sample =
    share.index === 0 && scn.sample > 0
      ? await openSampleClients(
          scn.targets[0]!,
          scn.subscribers.channels,
          scn.sample,
          scn.connectTimeout * 1000,
        )
      : null;

  const silence = new SilenceTracker();
  const heard = (channel: string, id: number, at: number) => silence.heard(channel, id, at);
  const clock = gatewayClock(scn, () => c.skew++);

  const row = { ticks: 0, snapshots: 0 }; // this second's deliveries
  let connectedNow = 0; // light clients connected at this moment
  const sink: LightClientSink = {
    connected(client, ms) {
      c.connected++;
      c.peakConcurrent = Math.max(c.peakConcurrent, ++connectedNow);
      hist.connect.recordValue(Math.round(ms * 1000));
      startStay(client);
      clock.ask(client);
    },
    subscribed(_c, answer) {
      if (isOk(answer)) c.subOk++;
      else {
        c.subFailed++;
        const e = (answer as { error?: { code?: string; message?: string } }).error;
        bump(subscribeErrors, [e?.code ?? 'no answer', e?.message].filter(Boolean).join(' '));
      }
    },
    tick(client, tick: Tick, at) {
      received++;
      if (!measuring) return;
      // The answer to a subscribe is the product's last tick: a snapshot, not a delivery.
      if (!client.seen.has(tick.id)) {
        client.seen.add(tick.id);
        c.initialTicks++;
        return;
      }
      c.ticks++;
      row.ticks++;
      const us = clock.latencyUs(at, tick.ts);
      const first = heard(`ticks:${tick.id}`, tick.seq, at);
      if (us === null) return;
      hist.tick.recordValue(us);
      second.recordValue(us);
      if (first) hist.first.recordValue(us);
    },
    market(client, ts, at) {
      if (!measuring) return;
      if (!client.seen.has('market')) {
        client.seen.add('market');
        return;
      }
      c.snapshots++;
      row.snapshots++;
      heard('market', ts, at);
      const us = clock.latencyUs(at, ts);
      if (us !== null) hist.snapshot.recordValue(us);
    },
    failed(client, reason) {
      c.failed++;
      bump(connectFailures, reason);
      arrivalGone(client);
    },
    closed(client, reason) {
      if (reason === 'server') c.disconnects++;
      if (reason === 'abandoned') c.abandoned++;
      else connectedNow--;
      arrivalGone(client);
    },
  };

  const mine = (n: number, i: number) => Math.floor(n / share.of) + (i < n % share.of ? 1 : 0);
  let traders: TraderRun | null = null;
  if (scn.traders) {
    const count = mine(scn.traders.count, share.index);
    let first = 0;
    for (let i = 0; i < share.index; i++) first += mine(scn.traders.count, i);
    const deps = {
      api: scn.api ?? scn.targets[0]!,
      gateways: scn.targets,
      ...(share.operatorToken ? { operatorToken: share.operatorToken } : {}),
      connectTimeoutMs: scn.connectTimeout * 1000,
      first,
      counters: c,
      orderErrors,
      hist: { order: hist.order, balance: hist.balance },
      measuring: () => measuring,
      log,
      live: (delta: number) => {
        connectedNow += delta;
        c.peakConcurrent = Math.max(c.peakConcurrent, connectedNow);
      },
    };
    const arriving = scn.phases.some((p) => p.kind === 'arrival' && p.who === 'traders');
    try {
      if (count > 0 || arriving) traders = await startTraders({ ...scn.traders, count }, deps);
    } catch (err) {
      // Nothing to measure without them: close what is open and say which step failed.
      sample?.close();
      await scraper?.stop();
      self.stop();
      throw new Error(`traders could not start: ${(err as Error).message}`);
    }
    log(`traders ready: ${c.tradersReady}/${count}`);
  }

  const slots = planSlots(scn.phases).filter((_, i) => i % share.of === share.index);
  c.planned = slots.length;
  /** A client of the plan: `leave` when planned, or, for an arrival, `stayMs` once connected. */
  interface Open {
    client: LightClient;
    leave?: number;
    stayMs?: number;
    phase?: number;
  }
  const open: Open[] = [];
  const byClient = new Map<LightClient, Open>();
  // Per arrival phase: this process's share of its cap, and its arrivals connecting or connected.
  const caps = scn.phases.map((p) =>
    p.kind === 'arrival' && p.maxClients !== undefined ? mine(p.maxClients, share.index) : Infinity,
  );
  const arrivalsLive = scn.phases.map(() => 0);
  const startStay = (client: LightClient) => {
    const o = byClient.get(client);
    if (o?.stayMs !== undefined) o.leave = nowMs() + o.stayMs;
  };
  const arrivalGone = (client: LightClient) => {
    const o = byClient.get(client);
    byClient.delete(client);
    if (o?.phase !== undefined) arrivalsLive[o.phase]!--;
  };
  const t0 = nowMs();
  const end = t0 + totalSeconds(scn) * 1000;
  let nextSlot = 0;
  let targetTurn = share.index;
  // Any planned leave at all (ramp-down, sessions): else the close scan is skipped.
  const leavers = slots.some((s) => s.leave !== undefined);
  const connect = (plannedAt: number, plan: Omit<Open, 'client'> = {}) => {
    const url = scn.targets[targetTurn++ % scn.targets.length]!;
    const opts = {
      url,
      channels: scn.subscribers.channels,
      connectTimeoutMs: scn.connectTimeout * 1000,
      plannedAt,
    };
    const o: Open = { client: new LightClient(opts, sink), ...plan };
    open.push(o);
    byClient.set(o.client, o);
    if (o.phase !== undefined) arrivalsLive[o.phase]!++;
  };
  let tradersArrived = 0;
  /** Opens an arrival unless its phase is at its cap (k6's dropped iterations). */
  const arrive = (s: Slot) => {
    const { phase, n } = s.arrival!;
    if (arrivalsLive[phase]! >= caps[phase]!) {
      c.droppedArrivals++;
      return;
    }
    c.arrivals++;
    const stayMs = s.leave !== undefined ? s.leave - s.at : undefined;
    const p = scn.phases[phase]!;
    if (p.kind === 'arrival' && p.who === 'traders' && traders && scn.traders) {
      tradersArrived++;
      arrivalsLive[phase]!++;
      traders.arrive(scn.traders.count + n, stayMs, () => arrivalsLive[phase]!--);
    } else connect(t0 + s.at, { phase, ...(stayMs !== undefined ? { stayMs } : {}) });
  };
  const reconnectSome = (fraction: number) => {
    // Connected ones only: a reconnect storm is about sockets the server holds.
    const live = open.filter(
      (o) => !o.client.done && (o.client.state === 'subscribed' || o.client.state === 'connected'),
    );
    const n = Math.round(live.length * fraction);
    const now = nowMs();
    for (const o of live.sort(() => Math.random() - 0.5).slice(0, n)) {
      o.client.close();
      c.plannedCloses++;
      // The replacement leaves when this one would have, and holds its place under the cap.
      connect(now, {
        ...(o.leave !== undefined ? { leave: o.leave } : {}),
        ...(o.phase !== undefined ? { phase: o.phase } : {}),
      });
      o.leave = undefined;
    }
  };
  const storms = scn.storms.map((s) => ({
    at: t0 + s.at * 1000,
    fraction: s.fraction,
    done: false,
  }));
  let nextChurn = scn.churn ? t0 + scn.churn.every * 1000 : Infinity;

  const planTimer = setInterval(() => {
    const now = nowMs();
    while (nextSlot < slots.length && t0 + slots[nextSlot]!.at <= now) {
      const s = slots[nextSlot++]!;
      if (s.arrival) arrive(s);
      else connect(t0 + s.at, s.leave === undefined ? {} : { leave: t0 + s.leave });
    }
    if (leavers)
      for (const o of open)
        if (o.leave !== undefined && o.leave <= now && !o.client.done) {
          o.client.close();
          c.plannedCloses++;
          o.leave = undefined;
        }
    if (now >= nextChurn && scn.churn) {
      nextChurn += scn.churn.every * 1000;
      reconnectSome(scn.churn.fraction);
    }
    for (const s of storms)
      if (!s.done && now >= s.at) {
        s.done = true;
        reconnectSome(s.fraction);
      }
  }, 20);

  // Steady: every slot planned so far has connected or failed, no ramp is under way, and a
  // second is left. Ramp-time samples (connects competing with deliveries) are dropped then.
  const rampOver = t0 + rampsEndMs(scn);
  let steady = false;
  let steadyAt = t0;
  let atSteady = { ticks: 0, snapshots: 0 };
  const series: SecondRow[] = [];
  const progressTimer = setInterval(() => {
    const now = nowMs();
    const due = slots.filter((s) => t0 + s.at <= now).length;
    if (
      !steady &&
      now >= rampOver &&
      c.connected + c.failed + c.abandoned + c.droppedArrivals + tradersArrived >= due &&
      end - now >= 1000
    ) {
      steady = true;
      steadyAt = now;
      atSteady = { ticks: c.ticks, snapshots: c.snapshots };
      for (const h of [hist.tick, hist.first, hist.snapshot]) h.reset();
      void scraper?.mark();
    }
    const p99 = second.totalCount ? second.getValueAtPercentile(99) / 1000 : null;
    const live = open.filter(
      (o) => o.client.state === 'subscribed' || o.client.state === 'connected',
    ).length;
    series.push({
      t: Math.round((now - t0) / 100) / 10,
      connected: live,
      ...row,
      orders: c.orders,
      p99,
      max: second.totalCount ? second.maxValue / 1000 : null,
    });
    log(
      `t=${((now - t0) / 1000).toFixed(1)}s connected ${live}/${slots.length} failed ${c.failed} drops ${c.disconnects}${c.droppedArrivals ? ` arrivals dropped ${c.droppedArrivals}` : ''}` +
        ` | ticks/s ${row.ticks} snapshots/s ${row.snapshots}${scn.traders ? ` orders ${c.ordersOk}/${c.orders}` : ''}` +
        ` | tick p99 ${p99 === null ? '-' : p99.toFixed(2)} ms${steady ? '' : ' (ramping)'}`,
    );
    second.reset();
    row.ticks = row.snapshots = 0;
  }, 1000);

  while (nowMs() < end && !share.signal?.aborted) await sleep(Math.min(200, end - nowMs()));
  clearInterval(planTimer);
  clearInterval(progressTimer);
  const tEnd = nowMs();
  await traders?.stop();
  measuring = false;
  await scraper?.mark(); // the window's far edge, every connection still open
  const scraped = (await scraper?.stop()) ?? [];

  const sampleReport = sample?.report() ?? null;
  sample?.close();
  traders?.close();
  for (const o of open) o.client.close();
  const grace = new Promise((r) => setTimeout(r, 3000).unref());
  await Promise.race([Promise.all(open.map((o) => o.client.whenClosed())), grace]);
  for (const o of open) o.client.terminate();
  await traders?.checkBalances();
  self.stop();

  const silences = silence.summary(tEnd);
  if (share.embedded || scraped.some((s) => s.role === 'all'))
    warnings.push(
      'embedded mode: the simulator runs in the measured process, so a stall of that process delays ' +
        'the ticks before they are stamped and latency cannot show it; read the silences',
    );
  const windowSec = (tEnd - steadyAt) / 1000 || 1;
  c.steadyTicks = c.ticks - atSteady.ticks;
  c.steadySnapshots = c.snapshots - atSteady.snapshots;
  return {
    result: {
      pid: process.pid,
      host: os.hostname(),
      index: share.index,
      startedAt: Math.round(t0),
      wallSec: (tEnd - t0) / 1000,
      steady,
      windowSec,
      counters: c,
      connectFailures,
      subscribeErrors,
      orderErrors,
      histograms: Object.fromEntries(
        histogramNames.map((n) => [n, encodeHistogram(hist[n])]),
      ) as Record<HistogramName, string>,
      silences,
      series,
      sample: sampleReport,
      clock: clock.report(),
      loadProcess: self.figures(),
      warnings,
    },
    scraped: {
      series: scraped,
      window: { idleBefore, from: Math.round(steadyAt) - epoch, to: Math.round(tEnd) - epoch },
    },
  };
}
