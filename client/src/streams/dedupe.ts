import { defer, filter, type MonoTypeOperatorFunction } from 'rxjs';

/**
 * Drops every tick whose `seq` is not above the last one passed for its product. Ticks can come
 * twice (the server sends the latest tick again on every (re)subscribe) or late (out of order),
 * and a chart or a price fed with either would step back in time. The memory of seen sequence
 * numbers is per subscription, so every subscriber starts from a clean slate.
 */
export function dropStaleTicks<
  T extends { id: string; seq: number },
>(): MonoTypeOperatorFunction<T> {
  return (source) =>
    defer(() => {
      const lastSeq = new Map<string, number>();
      return source.pipe(
        filter((tick) => {
          const seen = lastSeq.get(tick.id);
          if (seen !== undefined && tick.seq <= seen) return false;
          lastSeq.set(tick.id, tick.seq);
          return true;
        }),
      );
    });
}
