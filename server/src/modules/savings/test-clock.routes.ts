import { Router } from 'express';
import type { TestClockState } from '@shared/savings/model';
import * as endpoints from '@shared/savings/endpoints';
import type { movableClock } from '@server/platform/clock';
import { serve } from '@server/platform/http/serve';
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
  serve(r, endpoints.testClock, undefined, () => Promise.resolve(state()));
  serve(r, endpoints.advanceTestClock, undefined, async ({ body }) => {
    t.clock.advance(body.advanceMs);
    await t.afterAdvance();
    return state();
  });
  return r;
}
