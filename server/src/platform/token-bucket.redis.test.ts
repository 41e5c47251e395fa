import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createTokenBuckets } from './token-bucket';
import { tokenBucketContract } from './token-bucket.contract';

describe('token buckets in Redis (REDIS_URL), shared by two api processes', () => {
  // Two connections stand for two api processes; a prefix per run keeps parallel files apart.
  const clients = [new Redis(process.env.REDIS_URL!), new Redis(process.env.REDIS_URL!)];
  const run = `test-${randomBytes(4).toString('hex')}`;
  let made = 0;
  afterAll(() => clients.forEach((c) => c.disconnect()));

  tokenBucketContract((spec, clock) => {
    const keyPrefix = `${run}:orders-${made++}`;
    return clients.map((redis) =>
      createTokenBuckets(spec, { keyPrefix, redis, now: () => clock.now }),
    );
  });

  it('takes one script call per take (EVALSHA; the script itself only when Redis lacks it) and expires idle keys', async () => {
    const keyPrefix = `${run}:calls`;
    const redis = clients[0]!;
    const b = createTokenBuckets({ burst: 10, perSecond: 5 }, { keyPrefix, redis });
    const sent: string[] = [];
    const monitor = await redis.duplicate().monitor();
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (String(args[2]).startsWith(keyPrefix) || String(args[3]).startsWith(keyPrefix))
        sent.push(String(args[0]).toLowerCase());
    });
    // The first may meet NOSCRIPT (a Redis that has not seen the script): evalsha, then eval.
    await b.take('u');
    await b.take('u');
    await b.take('u');
    await new Promise((r) => setTimeout(r, 100));
    monitor.disconnect();
    expect(sent.filter((c) => c === 'evalsha')).toHaveLength(3);
    expect(sent.length).toBeLessThanOrEqual(4);
    // Three tokens spent at 5 a second: full again within 600 ms, kept at most a second longer.
    const ttl = await redis.pttl(`${keyPrefix}:u`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1600);
  });
});
