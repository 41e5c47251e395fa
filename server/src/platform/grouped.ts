/** What one item of a group came to: its value, or the error that is its own. */
export type Outcome<R> = { value: R } | { error: unknown };

export interface GroupedOptions {
  /** Most items handed to one run. */
  maxBatch?: number;
  /** Runs under way at once; items arriving meanwhile wait and go together in the next one. */
  maxInFlight?: number;
}

/**
 * Group commit: turns `run`, which does the work of many items in one go (one statement, one
 * round trip), into a function of one item. Items that arrive in one turn of the event loop start
 * a run together at its end when fewer than `maxInFlight` runs are under way, so at rest nothing
 * waits longer than that turn; items arriving while the database is busy wait and share the next
 * run (up to `maxBatch`). Under load that shares a statement's fixed
 * cost (the round trip, parsing, the commit) among them. `run` answers each item in order; if it
 * throws, every item of its group fails with that error.
 */
export function grouped<T, R>(
  run: (batch: readonly T[]) => Promise<readonly Outcome<R>[]>,
  { maxBatch = 64, maxInFlight = 4 }: GroupedOptions = {},
): (item: T) => Promise<R> {
  const waiting: { item: T; resolve: (r: R) => void; reject: (err: unknown) => void }[] = [];
  let inFlight = 0;
  const drain = (): void => {
    while (waiting.length && inFlight < maxInFlight) {
      const group = waiting.splice(0, maxBatch);
      inFlight++;
      // The next group starts as soon as this run is done, before its items hear of it.
      const done = () => {
        inFlight--;
        drain();
      };
      run(group.map((w) => w.item)).then(
        (outcomes) => {
          done();
          group.forEach((w, i) => {
            const o = outcomes[i];
            if (!o) w.reject(new Error('grouped: no outcome for an item'));
            else if ('error' in o) w.reject(o.error);
            else w.resolve(o.value);
          });
        },
        (err: unknown) => {
          done();
          group.forEach((w) => w.reject(err));
        },
      );
    }
  };
  // A new item waits for the end of the event loop's turn, so that those that arrive in the same
  // turn (requests read from several sockets at once) start together.
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    drain();
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}

/** Runs `fn` and keeps what it came to, value or error. */
export async function outcomeOf<R>(fn: () => Promise<R>): Promise<Outcome<R>> {
  try {
    return { value: await fn() };
  } catch (error) {
    return { error };
  }
}
