import { afterEach, describe, expect, it, vi } from 'vitest';
import { periodicJob } from './periodic';

describe('a periodic job', () => {
  afterEach(() => vi.useRealTimers());

  it.each([
    ['without a done callback', undefined],
    ['with a done callback', vi.fn()],
  ])('runs at start and then on schedule, %s', async (_name, done) => {
    vi.useFakeTimers();
    let runs = 0;
    const job = periodicJob({ run: () => Promise.resolve(++runs), defaultEveryMs: 100, done });
    job.start(100);
    await vi.advanceTimersByTimeAsync(350);
    // At 0, 100, 200 and 300 ms.
    expect(runs).toBe(4);
    if (done) expect(done).toHaveBeenLastCalledWith(4);
    await job.stop();
    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toBe(4);
  });

  it('waits its first delay, and reports a failed run without stopping', async () => {
    vi.useFakeTimers();
    const failed = vi.fn();
    let runs = 0;
    const job = periodicJob({
      run: () => (++runs === 1 ? Promise.reject(new Error('boom')) : Promise.resolve(runs)),
      defaultEveryMs: 100,
      failed,
    });
    job.start(100, 1000);
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(101);
    expect(runs).toBe(2);
    expect(failed).toHaveBeenCalledOnce();
    await job.stop();
  });
});
