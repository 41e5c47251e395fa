/**
 * What an api process knows of pending alerts, so its evaluation job asks nothing of the database
 * while there are none (DECISIONS.md, "Settlement wakes, it does not poll": the idle app's cost).
 * An alert set in this process is known at once; one set in another process (which evaluates it
 * too) or written directly is seen at the next check, every `recheckMs`.
 */
export function pendingAlerts(recheckMs: number, now: () => number = Date.now) {
  /** 'some': evaluate every pass; 'none': skip until the next check; 'unknown': check. */
  let state: 'some' | 'none' | 'unknown' = 'unknown';
  let checkedAt = -Infinity;
  return {
    /** Whether a pass should look at the pending alerts, asking `anyPending` when in doubt. */
    async worthEvaluating(anyPending: () => Promise<boolean>): Promise<boolean> {
      if (now() - checkedAt >= recheckMs) state = 'unknown';
      if (state === 'unknown') {
        state = (await anyPending()) ? 'some' : 'none';
        checkedAt = now();
      }
      return state === 'some';
    },
    /** An alert was set here: evaluate from the next pass. */
    added() {
      state = 'some';
      checkedAt = now();
    },
    /** Alerts fired or were deleted: there may be none left; check at the next pass. */
    mayBeNone() {
      if (state === 'some') state = 'unknown';
    },
  };
}
