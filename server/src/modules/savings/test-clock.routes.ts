import { Router } from 'express';
import { testClockBody, type TestClockState } from '@shared/savings';
import type { movableClock } from '@server/platform/clock';
import { parseOrThrow } from '@server/platform/http/validate';
import { cutoffOf, platformDay, type SavingsPolicy } from './savings.policy';

export interface TestClock {
  clock: ReturnType<typeof movableClock>;
  policy: Pick<SavingsPolicy, 'offsetMinutes'>;
  /** Runs after each move (the daily jobs), before the answer. */
  afterAdvance: () => Promise<unknown>;
}

/**
 * /api/test/clock: mounted only when the server starts with TEST_CLOCK=1 (otherwise the path is
 * an unknown endpoint, 404), so browser journeys can let days pass in milliseconds.
 */
export function testClockRoutes(t: TestClock): Router {
  const r = Router();
  const state = (): TestClockState => {
    const now = t.clock.now();
    return { now, nextCutoff: cutoffOf(platformDay(now, t.policy), t.policy) };
  };
  r.get('/test/clock', (_req, res) => {
    res.json(state());
  });
  r.post('/test/clock', async (req, res) => {
    const { advanceMs } = parseOrThrow(testClockBody, req.body);
    t.clock.advance(advanceMs);
    await t.afterAdvance();
    res.json(state());
  });
  return r;
}
