import type { Scenario } from './scenario';
import { nowMs, type LightClient } from './wire';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * The gateway's clock as this load process sees it: with `auto`, latencies are corrected by it
 * only when a target is another host (`sync`: always). The first client to connect asks the
 * gateway's `time` five times; the fastest round trip bounds the error.
 */
export function gatewayClock(scn: Pick<Scenario, 'clock' | 'targets'>, onSkew: () => void) {
  const remote =
    scn.clock === 'sync' ||
    (scn.clock === 'auto' && scn.targets.some((t) => !LOOPBACK.test(new URL(t).hostname)));
  let clock = { offsetMs: 0, rttMs: 0, applied: false };
  let asked = false;
  // With a correction due, latencies wait for it (null: delivery counted, latency not).
  let known = false;

  const measure = async (client: LightClient) => {
    let best: typeof clock | null = null;
    for (let i = 0; i < 5; i++) {
      const sent = nowMs();
      const a = (await client.request('time')) as [{ serverTime: number }] | null;
      const back = nowMs();
      if (!a?.[0]) {
        asked = false; // the next client to connect asks again
        return;
      }
      const est = {
        offsetMs: a[0].serverTime - (sent + back) / 2,
        rttMs: back - sent,
        applied: remote,
      };
      if (!best || est.rttMs < best.rttMs) best = est;
    }
    if (best) clock = remote ? best : { ...best, offsetMs: 0, applied: false };
    known = true;
  };

  return {
    /** A client connected: the first one (again after a failed try) measures the clock. */
    ask(client: LightClient) {
      if (asked) return;
      asked = true;
      void measure(client);
    },
    /** A delivery's latency in µs by the gateway's clock; a negative one counts as skew, 0. */
    latencyUs(receivedAt: number, sentAt: number): number | null {
      if (remote && !known) return null;
      const us = Math.round((receivedAt + clock.offsetMs - sentAt) * 1000);
      if (us >= 0) return us;
      onSkew();
      return 0;
    },
    /** What the result says of the clock: null when no client asked it. */
    report: () => (asked ? clock : null),
  };
}
