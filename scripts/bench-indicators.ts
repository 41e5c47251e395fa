/**
 * What a live tick costs the chart's indicators (`npx tsx scripts/bench-indicators.ts`): all six
 * on (MA 20, EMA 20, Bollinger 20/2, RSI 14, MACD 12/26/9, Stochastic 14/3), over 1 000 and
 * 10 000 bars, one tick in ten starting a new bar. Beside it the baseline the incremental module
 * replaced: every indicator recomputed over the whole series on each tick. Timings depend on the
 * machine and what else it runs: the load average is printed with them. Not a test: nothing here
 * passes or fails.
 */
import os from 'node:os';
import {
  liveBollinger,
  liveEma,
  liveMacd,
  liveRsi,
  liveSma,
  liveStochastic,
  type IndicatorBar,
} from '../client/src/pages/Detail/indicators-live';

const all = () => [
  liveSma(20),
  liveEma(20),
  liveBollinger(20, 2),
  liveRsi(14),
  liveMacd(12, 26, 9),
  liveStochastic(14, 3),
];

function walk(count: number): IndicatorBar[] {
  let x = 7;
  const random = () => (x = (x * 48_271) % 2_147_483_647) / 2_147_483_647;
  let last = 67_000;
  return Array.from({ length: count }, (_, i) => {
    const close = last * (1 + (random() - 0.5) * 0.002);
    const bar = {
      time: i * 60,
      high: Math.max(last, close) + random() * 5,
      low: Math.min(last, close) - random() * 5,
      close,
    };
    last = close;
    return bar;
  });
}

/** The next tick: the newest bar moved, or (one tick in ten) a new bar. */
function ticker(bars: IndicatorBar[]) {
  let n = 0;
  return () => {
    const last = bars.at(-1)!;
    const close = last.close + Math.sin(n) * 3;
    const time = ++n % 10 === 0 ? last.time + 60 : last.time;
    const bar = {
      time,
      close,
      high: Math.max(time === last.time ? last.high : close, close),
      low: Math.min(time === last.time ? last.low : close, close),
    };
    if (time === last.time) bars[bars.length - 1] = bar;
    else bars.push(bar);
    return bar;
  };
}

/** Microseconds per tick over `ticks` ticks (after a warm-up of the same length). */
function perTick(ticks: number, tick: () => void): number {
  for (let i = 0; i < ticks; i++) tick();
  const start = process.hrtime.bigint();
  for (let i = 0; i < ticks; i++) tick();
  return Number(process.hrtime.bigint() - start) / 1000 / ticks;
}

let sink = 0;
const rows: string[][] = [];
for (const count of [1_000, 10_000]) {
  // Incremental: a reset with the history, then one update per indicator per tick.
  const liveBars = walk(count);
  const indicators = all();
  for (const ind of indicators) ind.reset(liveBars);
  const nextLive = ticker(liveBars);
  const incremental = perTick(100_000, () => {
    const bar = nextLive();
    for (const ind of indicators) if (ind.update(bar) !== null) sink++;
  });
  // Baseline: each tick recomputes every indicator over the whole series.
  const fullBars = walk(count);
  const nextFull = ticker(fullBars);
  const full = perTick(count >= 10_000 ? 30 : 300, () => {
    nextFull();
    for (const ind of all()) sink += ind.reset(fullBars).length;
  });
  rows.push([
    count.toLocaleString('en'),
    incremental.toFixed(2),
    full.toFixed(1),
    `${Math.round(full / incremental).toLocaleString('en')}×`,
  ]);
}

const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
console.log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${load}`);
console.log('All six indicators on, per tick (µs):');
console.log(['bars', 'incremental', 'full recompute', 'ratio'].join('\t'));
for (const row of rows) console.log(row.join('\t'));
if (sink < 0) console.log(sink);
