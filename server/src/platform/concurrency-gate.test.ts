import { describe, expect, it } from 'vitest';
import { createConcurrencyGate } from './concurrency-gate';
import { RetryLater } from './http/errors';

/** A call that runs until `finish` is called. */
function pending() {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  return { run: () => done, finish };
}

describe('the concurrency gate', () => {
  it('runs at most `concurrency` calls at once; the rest wait their turn in order', async () => {
    const gate = createConcurrencyGate({ concurrency: 2, queue: 10, maxWaitMs: 5_000 });
    const calls = Array.from({ length: 5 }, pending);
    const order: number[] = [];
    const runs = calls.map((c, i) =>
      gate.run(async () => {
        order.push(i);
        await c.run();
      }),
    );
    await Promise.resolve();
    expect(gate.load).toEqual({ running: 2, waiting: 3 });
    calls[1]!.finish();
    calls[0]!.finish();
    await runs[0];
    await runs[1];
    await new Promise((r) => setImmediate(r));
    expect(gate.load).toEqual({ running: 2, waiting: 1 });
    calls.slice(2).forEach((c) => c.finish());
    await Promise.all(runs);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses at once with 503 UNAVAILABLE and a Retry-After when the queue is full', async () => {
    const gate = createConcurrencyGate({ concurrency: 1, queue: 1, maxWaitMs: 5_000 });
    const first = pending();
    const running = gate.run(first.run);
    const queued = gate.run(() => Promise.resolve('queued'));
    const refused = await gate.run(() => Promise.resolve('never')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RetryLater);
    expect(refused).toMatchObject({ status: 503, code: 'UNAVAILABLE', retryAfterMs: 5_000 });
    first.finish();
    await running;
    expect(await queued).toBe('queued');
  });

  it('refuses a call that waited past maxWaitMs, and frees its place in the queue', async () => {
    const gate = createConcurrencyGate({ concurrency: 1, queue: 5, maxWaitMs: 50 });
    const first = pending();
    const running = gate.run(first.run);
    const started = Date.now();
    const late = await gate.run(() => Promise.resolve('late')).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(late).toMatchObject({ status: 503, code: 'UNAVAILABLE', retryAfterMs: 1000 });
    expect(gate.load).toEqual({ running: 1, waiting: 0 });
    first.finish();
    await running;
    expect(await gate.run(() => Promise.resolve('next'))).toBe('next');
  });

  it('frees the slot of a call that throws', async () => {
    const gate = createConcurrencyGate({ concurrency: 1, queue: 1, maxWaitMs: 1_000 });
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(() => Promise.resolve(1))).toBe(1);
  });
});
