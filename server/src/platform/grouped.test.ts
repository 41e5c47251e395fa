import { describe, expect, it } from 'vitest';
import { grouped } from './grouped';

/** A run whose calls the test finishes by hand, recording each group it was given. */
function manualRun() {
  const groups: number[][] = [];
  const pending: { finish: () => void; fail: (err: unknown) => void }[] = [];
  const run = (batch: readonly number[]) => {
    groups.push([...batch]);
    return new Promise<{ value: number }[]>((resolve, reject) => {
      pending.push({
        finish: () => resolve(batch.map((n) => ({ value: n * 10 }))),
        fail: reject,
      });
    });
  };
  return { groups, pending, run };
}

describe('grouped', () => {
  /** The end of the event loop's current turn (where a group starts). */
  const turn = () => new Promise((r) => setImmediate(r));

  it('starts the items of one turn together, and groups those that arrive while a run is under way', async () => {
    const m = manualRun();
    const one = grouped(m.run, { maxInFlight: 1, maxBatch: 3 });
    const answers = [one(1), one(2)];
    expect(m.groups).toEqual([]);
    await turn();
    expect(m.groups).toEqual([[1, 2]]);
    answers.push(one(3), one(4), one(5), one(6));
    await turn();
    expect(m.groups).toEqual([[1, 2]]);
    m.pending[0]!.finish();
    await answers[0];
    expect(m.groups).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    m.pending[1]!.finish();
    await answers[2];
    expect(m.groups).toEqual([[1, 2], [3, 4, 5], [6]]);
    m.pending[2]!.finish();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50, 60]);
  });

  it('keeps up to maxInFlight runs under way', async () => {
    const m = manualRun();
    const one = grouped(m.run, { maxInFlight: 2, maxBatch: 1 });
    for (const n of [1, 2, 3, 4]) void one(n);
    await turn();
    expect(m.groups).toEqual([[1], [2]]);
  });

  it("gives each item its own outcome, and a failed run's error to every item of its group only", async () => {
    const m = manualRun();
    const one = grouped(m.run, { maxInFlight: 1 });
    const first = one(1);
    await turn();
    const [a, b] = [one(2), one(3)];
    m.pending[0]!.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    const c = one(4);
    m.pending[1]!.finish();
    expect(await Promise.all([a, b])).toEqual([20, 30]);
    m.pending[2]!.finish();
    expect(await c).toBe(40);

    const own = grouped((batch: readonly number[]) =>
      Promise.resolve(batch.map((n) => (n % 2 ? { value: n } : { error: new Error(`even ${n}`) }))),
    );
    await expect(own(3)).resolves.toBe(3);
    await expect(own(4)).rejects.toThrow('even 4');
  });
});
