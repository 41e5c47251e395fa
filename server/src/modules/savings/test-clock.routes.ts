import { Router } from 'express';
import { testClockStateDto } from '@shared/dto';
import { testClockBody, type TestClockState } from '@shared/savings';
import type { movableClock } from '@server/platform/clock';
import { parseOrThrow } from '@server/platform/http/validate';
import { declare } from '@server/platform/http/route';
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
  const tag = 'Test clock (TEST_CLOCK=1 only)';
  const responses = { 200: testClockStateDto };
  declare(
    r,
    {
      method: 'get',
      path: '/test/clock',
      operationId: 'testClock',
      summary: 'The test clock',
      tag,
      responses,
    },
    (_req, res) => {
      res.json(state());
    },
  );
  declare(
    r,
    {
      method: 'post',
      path: '/test/clock',
      operationId: 'advanceTestClock',
      summary: 'Move the clock on; run the daily job',
      tag,
      body: testClockBody,
      responses,
    },
    async (req, res) => {
      const { advanceMs } = parseOrThrow(testClockBody, req.body);
      t.clock.advance(advanceMs);
      await t.afterAdvance();
      res.json(state());
    },
  );
  return r;
}
