import { describe } from 'vitest';
import { createCheckLimiter } from './check-limiter';
import { checkLimiterContract } from './check-limiter.contract';

describe('check limiter in memory (one process)', () => {
  checkLimiterContract((points, durationSec) => [
    createCheckLimiter({ keyPrefix: 'confirm', points, durationSec }),
  ]);
});
