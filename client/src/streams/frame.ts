import {
  animationFrameScheduler,
  Observable,
  type OperatorFunction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';

/** What one key's values came to in one animation frame. */
export interface FrameLatest<T> {
  /** The newest value of the frame: what to draw. */
  latest: T;
  /**
   * The frame's first value: with sequence-numbered values (ticks), `first.seq` against the
   * previous frame's `latest.seq` still shows a gap in the feed that coalescing would hide.
   */
  first: T;
  /** How many values the frame held for this key (1: nothing was coalesced). */
  count: number;
}

/**
 * Coalesces a fast stream to at most one value per key per animation frame (issue 21): a
 * phone's main thread draws a price once per frame however many ticks came in it. The keys
 * of a frame come out in the order they first appeared in it; values completing the source
 * are flushed before the completion. Errors pass at once (what was pending is dropped).
 */
export function latestPerFrame<T>(
  keyOf: (value: T) => string = () => '',
  scheduler: SchedulerLike = animationFrameScheduler,
): OperatorFunction<T, FrameLatest<T>> {
  return (source) =>
    new Observable<FrameLatest<T>>((subscriber) => {
      let pending = new Map<string, FrameLatest<T>>();
      let frame: Subscription | null = null;
      const flush = () => {
        frame = null;
        const batch = pending;
        pending = new Map();
        for (const update of batch.values()) subscriber.next(update);
      };
      const sub = source.subscribe({
        next(value) {
          const key = keyOf(value);
          const seen = pending.get(key);
          if (seen) {
            seen.latest = value;
            seen.count++;
          } else pending.set(key, { latest: value, first: value, count: 1 });
          frame ??= scheduler.schedule(flush);
        },
        error(err: unknown) {
          frame?.unsubscribe();
          subscriber.error(err);
        },
        complete() {
          frame?.unsubscribe();
          flush();
          subscriber.complete();
        },
      });
      return () => {
        frame?.unsubscribe();
        sub.unsubscribe();
      };
    });
}
