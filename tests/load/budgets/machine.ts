/**
 * What the rest of the machine used during a run: all cores' busy time (/proc/stat) less this
 * tool's own process tree (itself, the app, Chromium, Lighthouse). The 1-minute load average
 * counts the tool's own browser and Lighthouse too, and lags a minute behind; this does neither.
 */
import fs from 'node:fs';
import { ticksPerSecond } from './rest';

/** Busy clock ticks of all cores since boot (user, nice, system, irq, softirq, steal). */
function machineBusyTicks(): number {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1);
  const [user, nice, system, , , irq, softirq, steal] = cpu.map(Number);
  return user! + nice! + system! + irq! + softirq! + (steal ?? 0);
}

/** Ticks used by `root` and every live process under it, with their reaped children's. */
function treeTicks(root: number): number {
  const parentOf = new Map<number, number>();
  const ticksOf = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended between the listing and the read
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    parentOf.set(Number(name), Number(f[1]));
    ticksOf.set(Number(name), Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]));
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parentOf.get(p) ?? 0, hops++)
      if (p === root) return true;
    return false;
  };
  let sum = 0;
  for (const [pid, ticks] of ticksOf) if (inTree(pid)) sum += ticks;
  return sum;
}

/** Cores the rest of the machine used from this call until the returned function's call. */
export function othersMeter(): () => number {
  const busy0 = machineBusyTicks();
  const ours0 = treeTicks(process.pid);
  const t0 = performance.now();
  return () => {
    const busy = machineBusyTicks() - busy0;
    const ours = treeTicks(process.pid) - ours0;
    const seconds = Math.max((performance.now() - t0) / 1000, 0.001);
    return Math.max(busy - ours, 0) / ticksPerSecond / seconds;
  };
}

export const cores = (n: number, bound = ''): string => `others ${bound}${n.toFixed(2)} cores`;
