import { monitorEventLoopDelay } from 'node:perf_hooks';
import { nowMs } from './wire';

/** The histogram records each sampling interval whole: the delay is what exceeds it. */
const LOOP_RESOLUTION_MS = 10;

/**
 * This load process's own cost from now on: its CPU, memory and event loop delay, which say
 * whether the load generator itself, not the server, was the bottleneck.
 */
export function watchLoadProcess() {
  const cpu0 = process.cpuUsage();
  const tStart = nowMs();
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loopDelay.enable();
  return {
    /** Stops watching the event loop; the figures keep what it saw. */
    stop: () => loopDelay.disable(),
    figures() {
      const cpu = process.cpuUsage(cpu0);
      const cpuSec = (cpu.user + cpu.system) / 1e6;
      return {
        cpuSec,
        cpuPctOfOneCore: (100 * cpuSec) / ((nowMs() - tStart) / 1000),
        rssMb: process.memoryUsage().rss / 2 ** 20,
        eventLoopP99Ms: Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_RESOLUTION_MS),
      };
    },
  };
}
