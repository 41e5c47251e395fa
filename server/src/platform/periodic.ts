/**
 * A job a process runs at start and then every `everyMs`, one run at a time: a run asked for
 * during another (`runOnce`, the seam tests and callers use) waits for it, then runs. A failed
 * run is reported to `failed` and the next one comes on schedule; `stop` waits for a run under way.
 */
export function periodicJob<T>(o: {
  run: () => Promise<T>;
  defaultEveryMs: number;
  done?: (result: T) => void;
  failed?: (err: unknown) => void;
}) {
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let intervalMs = o.defaultEveryMs;

  const runOnce = (): Promise<T> => {
    const run = chain.then(o.run, o.run);
    chain = run.catch(() => undefined);
    return run;
  };

  const tick = async () => {
    try {
      // Awaited apart: `o.done?.(await runOnce())` skips its argument, the run itself, when
      // there is no `done` (an optional call does not evaluate its arguments).
      const result = await runOnce();
      o.done?.(result);
    } catch (err) {
      o.failed?.(err);
    }
    if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
  };

  return {
    runOnce,
    /** Runs after `firstAfterMs` (now by default), then every `everyMs`. */
    start(everyMs = o.defaultEveryMs, firstAfterMs = 0) {
      intervalMs = everyMs;
      stopped = false;
      if (firstAfterMs > 0) timer = setTimeout(() => void tick(), firstAfterMs);
      else void tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await chain;
    },
  };
}
