import { describe, expect, it } from 'vitest';
import { Subject, from, lastValueFrom, toArray } from 'rxjs';
import { dropStaleTicks } from './dedupe';

const tick = (id: string, seq: number) => ({ id, seq, ts: seq * 500, price: `${seq}.00` });

describe('dropStaleTicks', () => {
  it('passes increasing sequence numbers and drops repeats and late ticks', async () => {
    const seqs = [1, 2, 2, 3, 1, 5, 4, 6];
    const out = await lastValueFrom(
      from(seqs.map((s) => tick('BTCUSDT', s))).pipe(dropStaleTicks(), toArray()),
    );
    expect(out.map((t) => t.seq)).toEqual([1, 2, 3, 5, 6]);
  });

  it('keeps a separate last sequence per product', async () => {
    const input = [tick('A', 10), tick('B', 1), tick('A', 9), tick('B', 2), tick('A', 11)];
    const out = await lastValueFrom(from(input).pipe(dropStaleTicks(), toArray()));
    expect(out.map((t) => `${t.id}${t.seq}`)).toEqual(['A10', 'B1', 'B2', 'A11']);
  });

  it('gives each subscriber its own memory', () => {
    const source = new Subject<ReturnType<typeof tick>>();
    const stream = source.pipe(dropStaleTicks());
    const first: number[] = [];
    const second: number[] = [];
    const a = stream.subscribe((t) => first.push(t.seq));
    source.next(tick('A', 5));
    a.unsubscribe();
    stream.subscribe((t) => second.push(t.seq));
    source.next(tick('A', 3));
    expect(first).toEqual([5]);
    expect(second).toEqual([3]);
  });
});
