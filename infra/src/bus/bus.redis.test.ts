import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { busContract } from './bus.contract';
import { createRedisBus } from './redis';

describe('Redis bus (REDIS_URL)', () => {
  // A namespace per run keeps parallel test files on the shared Redis apart.
  const namespace = `test-${randomBytes(4).toString('hex')}`;
  busContract(() => createRedisBus({ url: process.env.REDIS_URL! }, { namespace }));
});
