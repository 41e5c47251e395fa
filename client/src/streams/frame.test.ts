import { describe, expect, it } from 'vitest';
import { Subject, VirtualTimeScheduler } from 'rxjs';
import type { Tick } from '@shared/market/model';
import { latestPerFrame, type FrameLatest } from './frame';

const tick = (id: string, seq: number): Tick => ({ id, seq, ts: seq * 100, price: `${seq}.50` });

/** A source, the coalesced updates seen so far, and `frame()` standing for an animation frame. */
function harness() {
  const frames = new VirtualTimeScheduler();
  const source = new Subject<Tick>();
  const seen: FrameLatest<Tick>[] = [];
  let completed = false;
  source.pipe(latestPerFrame((t) => t.id, frames)).subscribe({
    next: (update) => seen.push(update),
    complete: () => (completed = true),
  });
  return { source, seen, frame: () => frames.flush(), isComplete: () => completed };
}

describe('latestPerFrame', () => {
  it('turns many ticks within one frame into one update with the newest price', () => {
    const { source, seen, frame } = harness();
    for (let seq = 1; seq <= 20; seq++) source.next(tick('BTCUSDT', seq));
    expect(seen).toEqual([]); // nothing drawn before the frame
    frame();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.latest).toEqual(tick('BTCUSDT', 20));
    expect(seen[0]!.first.seq).toBe(1);
    expect(seen[0]!.count).toBe(20);
  });

  it('keeps one update per product, in the order the products first ticked', () => {
    const { source, seen, frame } = harness();
    source.next(tick('ETHUSDT', 1));
    source.next(tick('BTCUSDT', 7));
    source.next(tick('ETHUSDT', 2));
    frame();
    expect(seen.map((u) => [u.latest.id, u.latest.seq, u.count])).toEqual([
      ['ETHUSDT', 2, 2],
      ['BTCUSDT', 7, 1],
    ]);
  });

  it('keeps the sequence numbers so a gap in the feed is still visible', () => {
    const { source, seen, frame } = harness();
    [1, 2, 3].forEach((seq) => source.next(tick('BTCUSDT', seq)));
    frame();
    [4, 5].forEach((seq) => source.next(tick('BTCUSDT', seq)));
    frame();
    [9, 10].forEach((seq) => source.next(tick('BTCUSDT', seq))); // 6 to 8 never came
    frame();
    const gaps = seen.slice(1).map((u, i) => u.first.seq - seen[i]!.latest.seq - 1);
    expect(gaps).toEqual([0, 3]);
  });

  it('draws nothing in a frame without ticks, and flushes what is pending on completion', () => {
    const { source, seen, frame, isComplete } = harness();
    frame();
    expect(seen).toEqual([]);
    source.next(tick('BTCUSDT', 1));
    source.complete();
    expect(seen.map((u) => u.latest.seq)).toEqual([1]);
    expect(isComplete()).toBe(true);
  });
});
