import { describe, expect, it } from 'vitest';
import { pendingAlerts } from './alerts-pending';

/** The alert job's knowledge of pending alerts: no statement while it knows there are none. */
describe('pending alerts as the evaluation job knows them', () => {
  const setup = (pendingInDb: { value: boolean }) => {
    let now = 0;
    let probes = 0;
    const pending = pendingAlerts(2000, () => now);
    const pass = () =>
      pending.worthEvaluating(() => {
        probes++;
        return Promise.resolve(pendingInDb.value);
      });
    return { pending, pass, probes: () => probes, advance: (ms: number) => (now += ms) };
  };

  it('probes once, then skips without a statement until the recheck', async () => {
    const db = { value: false };
    const s = setup(db);
    expect(await s.pass()).toBe(false);
    for (let i = 0; i < 5; i++) {
      s.advance(300);
      expect(await s.pass()).toBe(false);
    }
    expect(s.probes()).toBe(1);
    // Another process set one: seen at the next check.
    db.value = true;
    s.advance(500);
    expect(await s.pass()).toBe(true);
    expect(s.probes()).toBe(2);
  });

  it('evaluates at once an alert set here, and probes again once alerts fired or were deleted', async () => {
    const db = { value: false };
    const s = setup(db);
    expect(await s.pass()).toBe(false);
    db.value = true;
    s.pending.added();
    expect(await s.pass()).toBe(true);
    expect(s.probes()).toBe(1);
    db.value = false;
    s.pending.mayBeNone();
    expect(await s.pass()).toBe(false);
    expect(s.probes()).toBe(2);
  });
});
