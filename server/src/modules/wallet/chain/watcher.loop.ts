import type { Logger } from '@infra/logger';
import type { Metrics } from '@server/platform/metrics';
import type { Round, Watcher } from './watcher';

/**
 * Runs a watcher's rounds every `pollMs` (at once again while it is catching up), counting what
 * they do; a failed round (node or database unreachable) is logged and counted, and the next one
 * retries from the stored cursor.
 */
export function loopWatcher(
  watcher: Watcher,
  o: { pollMs: number; metrics?: Metrics; log?: Logger; onRound?: (r: Round) => void },
) {
  const network = watcher.network;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let failures = 0;

  const once = async (): Promise<boolean> => {
    try {
      const r = await watcher.round();
      failures = 0;
      const m = o.metrics;
      if (m) {
        m.chainHead.set({ network }, r.head);
        m.chainLag.set({ network }, r.head - (r.read?.to ?? r.head));
        m.chainConfirming.set({ network }, r.confirming);
        if (r.credited) m.chainDeposits.inc({ network, outcome: 'credited' }, r.credited);
        if (r.held) m.chainDeposits.inc({ network, outcome: 'held' }, r.held);
        if (r.dropped) m.chainDeposits.inc({ network, outcome: 'dropped' }, r.dropped);
        m.chainLastRound.set({ network }, Date.now() / 1000);
      }
      o.onRound?.(r);
      // Behind the head: go on at once rather than a poll later.
      return r.read !== null && r.read.to < r.head;
    } catch (err) {
      failures += 1;
      o.metrics?.chainRoundFailures.inc({ network });
      // Logged once per outage and then every 20th round, not every few seconds.
      if (failures === 1 || failures % 20 === 0)
        o.log?.warn({ network, failures, err: (err as Error).message }, 'watcher round failed');
      return false;
    }
  };

  const loop = () => {
    if (stopped) return;
    running = once().then((again) => {
      if (!stopped) timer = setTimeout(loop, again ? 0 : o.pollMs);
    });
  };
  loop();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
