import { unavailable } from './http/errors';

export interface GateLimits {
  /** Calls running at once. */
  concurrency: number;
  /** Calls waiting for a turn at most; one more is refused at once. */
  queue: number;
  /** How long a call waits for its turn at most before it is refused. */
  maxWaitMs: number;
}

/**
 * A per-process cap on calls running at once (the anonymous market reads that reach the
 * database): the rest wait in a bounded queue, first come first served, and a call that finds
 * the queue full, or waits past `maxWaitMs`, is refused 503 UNAVAILABLE with a Retry-After, so
 * these calls never hold more than `concurrency` database connections (or the embedded
 * database's time) however many arrive.
 */
export function createConcurrencyGate(limits: GateLimits) {
  let running = 0;
  const waiting: { go: () => void }[] = [];
  const busy = () =>
    unavailable(
      'Too busy to read this just now; try again shortly',
      Math.max(1000, limits.maxWaitMs),
    );

  const release = () => {
    const next = waiting.shift();
    if (next) next.go();
    else running--;
  };

  /** Resolves when the call may run (its slot handed over by `release`), or rejects 503. */
  const turn = (): Promise<void> => {
    if (running < limits.concurrency) {
      running++;
      return Promise.resolve();
    }
    if (waiting.length >= limits.queue) return Promise.reject(busy());
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        go: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(waiter), 1);
        reject(busy());
      }, limits.maxWaitMs);
      waiting.push(waiter);
    });
  };

  return {
    async run<T>(fn: () => Promise<T>): Promise<T> {
      await turn();
      try {
        return await fn();
      } finally {
        release();
      }
    },
    /** Calls running and waiting (tests, metrics). */
    get load() {
      return { running, waiting: waiting.length };
    },
  };
}

export type ConcurrencyGate = ReturnType<typeof createConcurrencyGate>;
