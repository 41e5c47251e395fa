import type { Bus } from '@infra/bus';
import type { BusMessageOf } from '@shared/bus';

/** How often a sender repeats `tape-wanted` while it still wants the tape current. */
export const TAPE_WANTED_EVERY_MS = 1000;

/**
 * Says on the bus that the tape is wanted current (a `tape-wanted` message; DECISIONS 63): call
 * it whenever that is so, as often as you like. It sends at once when it has not sent for
 * `everyMs`, and otherwise not: the simulator holds each message for a few seconds.
 */
export function tapeWanted(
  bus: Pick<Bus, 'publish'>,
  by: BusMessageOf<'tape-wanted'>['by'],
  everyMs = TAPE_WANTED_EVERY_MS,
): () => void {
  let sentAt = -Infinity;
  return () => {
    const now = Date.now();
    if (now - sentAt < everyMs) return;
    sentAt = now;
    // A lost message costs a second of the rest cadence; the next call sends again.
    bus.publish({ type: 'tape-wanted', by }).catch(() => undefined);
  };
}
