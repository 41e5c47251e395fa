import { describe, expect, it } from 'vitest';
import type { BucketSpec, TokenBuckets } from './token-bucket';

/**
 * What every store of token buckets does. `make` returns buckets sharing one store (two for
 * Redis: two api processes), all refilling by the fake clock `clock.now`.
 */
export function tokenBucketContract(
  make: (spec: BucketSpec, clock: { now: number }) => TokenBuckets[],
) {
  const takeMany = async (b: TokenBuckets, key: string, n: number) => {
    const out = [];
    for (let i = 0; i < n; i++) out.push(await b.take(key));
    return out;
  };

  describe('token buckets', () => {
    it('lets a burst through at once, then refuses with the time until the next token', async () => {
      const clock = { now: 1_000_000 };
      const [b] = make({ burst: 10, perSecond: 5 }, clock);
      const burst = await takeMany(b!, 'u1', 10);
      expect(burst.every((r) => r.ok)).toBe(true);
      expect(await b!.take('u1')).toEqual({ ok: false, retryAfterMs: 200 });
      clock.now += 150;
      expect(await b!.take('u1')).toEqual({ ok: false, retryAfterMs: 50 });
      clock.now += 50;
      expect(await b!.take('u1')).toEqual({ ok: true });
      expect(await b!.take('u1')).toEqual({ ok: false, retryAfterMs: 200 });
    });

    it('never refuses a human pace: 3 a second for 10 s, and after it, another burst', async () => {
      const clock = { now: 5_000_000 };
      const [b] = make({ burst: 10, perSecond: 5 }, clock);
      for (let i = 0; i < 30; i++) {
        expect(await b!.take('trader'), `order ${i}`).toEqual({ ok: true });
        clock.now += 333;
      }
      // Idle for two seconds: the bucket is full again (10 at once).
      clock.now += 2000;
      expect((await takeMany(b!, 'trader', 10)).every((r) => r.ok)).toBe(true);
    });

    it('refuses a script: of 100 at once only the burst passes; refusals spend nothing', async () => {
      const clock = { now: 9_000_000 };
      const [b] = make({ burst: 10, perSecond: 5 }, clock);
      const all = await takeMany(b!, 'bot', 100);
      expect(all.filter((r) => r.ok)).toHaveLength(10);
      // Waiting the time it was told lets the next one in, however many were refused.
      const wait = all.at(-1)!;
      expect(wait.ok).toBe(false);
      clock.now += (wait as { retryAfterMs: number }).retryAfterMs;
      expect(await b!.take('bot')).toEqual({ ok: true });
    });

    it("keeps each key's bucket apart: one user's burst never refuses another", async () => {
      const clock = { now: 12_000_000 };
      const [b] = make({ burst: 3, perSecond: 1 }, clock);
      await takeMany(b!, 'a', 3);
      expect((await b!.take('a')).ok).toBe(false);
      expect((await takeMany(b!, 'b', 3)).every((r) => r.ok)).toBe(true);
    });

    it('shares one bucket between the stores of one deployment', async () => {
      const clock = { now: 15_000_000 };
      const stores = make({ burst: 4, perSecond: 2 }, clock);
      const taken = [];
      for (let i = 0; i < 8; i++) taken.push(await stores[i % stores.length]!.take('shared'));
      expect(taken.filter((r) => r.ok)).toHaveLength(4);
    });
  });
}
