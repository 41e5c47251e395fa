/**
 * The embedded app at rest before anything is measured (issue 40). A freshly started app does its
 * first-start work (the simulator's tape backfill, its first rounds) in the same process that
 * serves the page; measured then, that work competes with the page and the browser for the same
 * cores, and the figures say more about the app's start than about the page.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** Clock ticks per second of /proc's CPU times (100 on every Linux at hand; asked all the same). */
export const ticksPerSecond = (() => {
  const res = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(res.stdout?.trim());
  return Number.isFinite(n) && n > 0 ? n : 100;
})();

/** CPU seconds process `pid` has used so far, all its threads (utime + stime of /proc/<pid>/stat). */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start with the state, field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / ticksPerSecond;
}

/** Share of one core that `pid` uses from this call until the returned function's call. */
export function cpuMeter(pid: number): () => number {
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  return () => (cpuSeconds(pid) - cpu0) / Math.max((performance.now() - t0) / 1000, 0.001);
}

export const percent = (share: number): string => `${(share * 100).toFixed(0)}%`;

export interface RestOptions {
  /** At rest: under this share of one core over a whole window, */
  threshold: number;
  /** or settled: `settledWindows` windows in a row under `settledBelow`, within `settledBand`. */
  settledWindows: number;
  settledBelow: number;
  settledBand: number;
  windowMs: number;
  limitMs: number;
}

// The app's steady work (the simulator's ticks, their pushes, the tape's flushes) costs a few
// percent of a core on a quiet machine and more on a busy one: "settled" catches its steady level
// where "under 5%" never comes. A backfill runs near 100%, far above `settledBelow`.
export const restDefaults: RestOptions = {
  threshold: 0.05,
  settledWindows: 3,
  settledBelow: 0.3,
  settledBand: 0.03,
  windowMs: 3000,
  limitMs: 180_000,
};

export interface Rest {
  waitedMs: number;
  /** Each window's share of a core, in order. */
  shares: number[];
  atRest: boolean;
}

function settled(shares: number[], o: RestOptions): boolean {
  const last = shares.slice(-o.settledWindows);
  if (last.length < o.settledWindows || Math.max(...last) >= o.settledBelow) return false;
  return Math.max(...last) - Math.min(...last) <= o.settledBand;
}

/**
 * Until process `pid` is at rest (under `threshold` of a core over one window, or settled at
 * its steady level); returns how long that took and every window's share. Past `limitMs` it
 * gives up and says so: the figures that follow are then taken beside a busy app.
 */
export async function untilAtRest(pid: number, options: RestOptions = restDefaults): Promise<Rest> {
  const t0 = performance.now();
  const shares: number[] = [];
  for (;;) {
    const meter = cpuMeter(pid);
    await new Promise((resolve) => setTimeout(resolve, options.windowMs));
    shares.push(meter());
    const waitedMs = performance.now() - t0;
    if (shares.at(-1)! < options.threshold || settled(shares, options))
      return { waitedMs, shares, atRest: true };
    if (waitedMs >= options.limitMs) return { waitedMs, shares, atRest: false };
  }
}
