import { movableClock } from '@server/platform/clock';
import type { SavingsOverview, SavingsRecord } from '@shared/savings/model';
import type { TestApi } from './api';
import type { TestUser } from './wallet';

export const DAY_MS = 86_400_000;

/**
 * A platform clock frozen at `start` (default 2026-01-10 08:00 UTC) that only moves when a test
 * moves it, so no test depends on the real time of day (or a real midnight passing mid-test).
 */
export function frozenClock(start = Date.UTC(2026, 0, 10, 8)) {
  return movableClock({ now: () => start });
}

/** Moves the clock just past the next cut-off (00:00 platform time, UTC here), plus `extraMs`. */
export function toNextCutoff(clock: ReturnType<typeof movableClock>, extraMs = 1000): void {
  const now = clock.now();
  clock.advance(Math.floor(now / DAY_MS + 1) * DAY_MS - now + extraMs);
}

export async function savingsOf(api: TestApi, user: TestUser): Promise<SavingsOverview> {
  return (await api.http.get('/api/savings').set(user.auth).expect(200)).body as SavingsOverview;
}

export function transferSavings(
  api: TestApi,
  user: TestUser,
  direction: 'in' | 'out',
  amount: unknown,
  key?: string,
) {
  const req = api.http.post(`/api/savings/${direction}`).set(user.auth);
  return (key ? req.set('Idempotency-Key', key) : req).send({ amount });
}

/** Every record of the user, newest first, following the cursor. */
export async function allRecords(api: TestApi, user: TestUser): Promise<SavingsRecord[]> {
  const out: SavingsRecord[] = [];
  let cursor: string | null = null;
  do {
    const res = await api.http
      .get('/api/savings/records')
      .query({ limit: 100, ...(cursor ? { cursor } : {}) })
      .set(user.auth)
      .expect(200);
    const page = res.body as { items: SavingsRecord[]; nextCursor: string | null };
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
