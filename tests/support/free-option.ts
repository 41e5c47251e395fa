import { expect } from 'vitest';
import { freeOptionAttack } from '../load/flood';

/**
 * Issue 33's attack on a running deployment, and what it must not achieve: 600 public reads over
 * 300 connections (spread, varied) while six orders are placed 5 s ahead; then every request was
 * answered, the largest silence between ticks stayed under 2.5 s, and no order was voided.
 *
 * Why 2.5 s: voids begin past MAX_FEED_DELAY_MS (3 s) and the attack made 7-12 s silences before
 * the fix; the feed's own cadence on a machine busy with the whole suite has reached 1.5 s
 * (CI: 1 506 ms, scaled), so the bound sits between them. The cadence itself is measured by
 * `npm run bench:flood`, not here.
 */
export async function attackAndCheck(apiUrl: string, invite: string, label: string) {
  const { flood, gaps, outcomes } = await freeOptionAttack(apiUrl, invite, {
    connections: 300,
    requests: 600,
    product: 'BTCUSDT',
    spread: true,
    vary: true,
    orders: 6,
    leadMs: 5000,
  });
  console.log(
    `${label} flood: ${JSON.stringify(flood.statuses)} in ${flood.ms} ms; largest tick gap ` +
      `${gaps.largestMs} ms (${gaps.ticks} ticks); orders ${JSON.stringify(outcomes)}`,
  );
  // The flood happened: every request was answered (served or refused), none was lost.
  expect(flood.sent).toBe(600);
  expect(flood.statuses.error ?? 0).toBe(0);
  expect(gaps.largestMs).toBeLessThan(2500);
  expect(Object.keys(outcomes).filter((k) => k.startsWith('void'))).toEqual([]);
  expect(Object.values(outcomes).reduce((a, b) => a + b, 0)).toBe(6);
}
