import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { createCheckLimiter } from './check-limiter';
import { checkLimiterContract } from './check-limiter.contract';

describe('check limiter in Redis (REDIS_URL), shared by two api processes', () => {
  // Two connections stand for two api processes; a prefix per run keeps parallel files apart.
  const clients = [new Redis(process.env.REDIS_URL!), new Redis(process.env.REDIS_URL!)];
  const run = `test-${randomBytes(4).toString('hex')}`;
  let limiters = 0;
  afterAll(() => clients.forEach((c) => c.disconnect()));

  checkLimiterContract((points, durationSec) => {
    const keyPrefix = `${run}:confirm-${limiters++}`;
    return clients.map((redis) => createCheckLimiter({ keyPrefix, points, durationSec, redis }));
  });
});
