import { describe, expect, it } from 'vitest';
import { createTokenBuckets, failingOpen, type TokenBuckets } from './token-bucket';
import { tokenBucketContract } from './token-bucket.contract';

describe('token buckets in memory (embedded)', () => {
  tokenBucketContract((spec, clock) => [
    createTokenBuckets(spec, { keyPrefix: 'test', now: () => clock.now }),
  ]);

  it('forgets full buckets, so idle users cost no memory', async () => {
    const clock = { now: 0 };
    const b = createTokenBuckets(
      { burst: 2, perSecond: 1 },
      { keyPrefix: 'test', now: () => clock.now },
    );
    for (let i = 0; i < 1000; i++) await b.take(`user-${i}`);
    clock.now += 61_000;
    await b.take('later');
    // A bucket that refilled is the same as none: the user still has a whole burst.
    expect(await b.take('user-1')).toEqual({ ok: true });
    expect(await b.take('user-1')).toEqual({ ok: true });
    expect((await b.take('user-1')).ok).toBe(false);
  });
});

describe('a throttle whose store fails', () => {
  it('lets requests through and logs once a minute, not once a request', async () => {
    const broken: TokenBuckets = {
      spec: { burst: 1, perSecond: 1 },
      take: () => Promise.reject(new Error('Connection is closed.')),
    };
    const warnings: unknown[] = [];
    const b = failingOpen(broken, {
      name: 'orders',
      log: { warn: (o: unknown) => warnings.push(o) },
    });
    for (let i = 0; i < 5; i++) expect(await b.take('u')).toEqual({ ok: true });
    expect(warnings).toEqual([{ err: 'Connection is closed.', throttle: 'orders' }]);
  });
});
