import { vi } from 'vitest';

/**
 * Waits until `predicate` holds (vitest's `vi.waitFor`, polling every 10 ms); fails after `ms`
 * naming what it waited for.
 */
export function eventually(predicate: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  return vi.waitFor(
    () => {
      if (!predicate()) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: ms, interval: 10 },
  );
}
