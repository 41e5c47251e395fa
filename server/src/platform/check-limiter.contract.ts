import { randomBytes } from 'node:crypto';
import { expect, it, vi } from 'vitest';
import type { CheckLimiter } from './check-limiter';

/**
 * A password check as the limiter sees it: takes a few milliseconds like argon2, counts how many
 * ran and how many ran at once.
 */
function checks() {
  const stats = { ran: 0, underWay: 0, mostAtOnce: 0 };
  const check = (right: boolean) => async () => {
    stats.ran++;
    stats.mostAtOnce = Math.max(stats.mostAtOnce, ++stats.underWay);
    await new Promise((r) => setTimeout(r, 3 + Math.random() * 10));
    stats.underWay--;
    return right;
  };
  return { stats, right: check(true), wrong: check(false) };
}

/**
 * What every CheckLimiter owes its callers. `make(points, durationSec)` returns limiters that
 * share their counts (several of them stand for several api processes where the store allows).
 */
export function checkLimiterContract(
  make: (points: number, durationSec: number) => CheckLimiter[],
) {
  const freshKey = () => `user-${randomBytes(4).toString('hex')}`;

  it('runs at most the limit of wrong checks sent at once, and refuses the rest', async () => {
    const [limiter] = make(10, 900);
    const key = freshKey();
    const { stats, wrong, right } = checks();
    const answers = await Promise.all(Array.from({ length: 16 }, () => limiter!.run(key, wrong)));
    expect(answers.filter((a) => a === false)).toHaveLength(10);
    expect(answers.filter((a) => a === null)).toHaveLength(6);
    expect(stats.ran).toBe(10);
    // Past the limit even the right password is refused, without being checked.
    expect(await limiter!.run(key, right)).toBeNull();
    expect(stats.ran).toBe(10);
  });

  it('lets every right check sent at once through, never more than the limit at a time', async () => {
    const limiters = make(10, 900);
    const key = freshKey();
    const { stats, right } = checks();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => limiters[i % limiters.length]!.run(key, right)),
    );
    expect(answers).toEqual(Array<boolean>(50).fill(true));
    expect(stats.ran).toBe(50);
    expect(stats.mostAtOnce).toBeLessThanOrEqual(10);
  });

  it('lets right checks through among wrong ones sent at once', async () => {
    const limiters = make(10, 900);
    const key = freshKey();
    const { stats, right, wrong } = checks();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        limiters[i % limiters.length]!.run(key, i % 6 === 0 ? wrong : right),
      ),
    );
    expect(answers.filter((a) => a === true)).toHaveLength(25);
    expect(answers.filter((a) => a === false)).toHaveLength(5);
    expect(stats.ran).toBe(30);
  });

  it('forgets wrong checks once a right one ends: 9 wrong, right, 9 wrong, right', async () => {
    const [limiter] = make(10, 900);
    const key = freshKey();
    const { right, wrong } = checks();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 9; i++) expect(await limiter!.run(key, wrong)).toBe(false);
      expect(await limiter!.run(key, right)).toBe(true);
    }
  });

  it('tells the one wrong check that fills the limit (the lock-out), alone or among many', async () => {
    const limiters = make(10, 900);
    const { right, wrong } = checks();
    const key = freshKey();
    const filled: number[] = [];
    for (let i = 1; i <= 10; i++)
      expect(await limiters[0]!.run(key, wrong, () => filled.push(i))).toBe(false);
    expect(filled).toEqual([10]);
    // Refused while locked: no second lock-out.
    expect(await limiters[0]!.run(key, right, () => filled.push(0))).toBeNull();
    expect(filled).toEqual([10]);

    const crowded = freshKey();
    let told = 0;
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        limiters[i % limiters.length]!.run(crowded, wrong, () => told++),
      ),
    );
    expect(told).toBe(1);
  });

  it('keeps keys apart', async () => {
    const [limiter] = make(3, 900);
    const [a, b] = [freshKey(), freshKey()];
    const { right, wrong } = checks();
    for (let i = 0; i < 3; i++) await limiter!.run(a, wrong);
    expect(await limiter!.run(a, right)).toBeNull();
    expect(await limiter!.run(b, right)).toBe(true);
  });

  it('counts a check that throws as neither right nor wrong', async () => {
    const [limiter] = make(2, 900);
    const key = freshKey();
    const { right } = checks();
    for (let i = 0; i < 5; i++)
      await expect(
        limiter!.run(key, () => Promise.reject(new Error('database away'))),
      ).rejects.toThrow('database away');
    expect(await limiter!.run(key, right)).toBe(true);
  });

  it('forgets wrong checks when their window ends', async () => {
    const [limiter] = make(2, 1);
    const key = freshKey();
    const { right, wrong } = checks();
    await limiter!.run(key, wrong);
    await limiter!.run(key, wrong);
    expect(await limiter!.run(key, right)).toBeNull();
    await vi.waitFor(async () => expect(await limiter!.run(key, right)).toBe(true), {
      timeout: 5000,
      interval: 100,
    });
  });
}
