import { describe, expect, it } from 'vitest';
import { addressKey } from './client-address';
import { createConnectionThrottle, type Admission } from './connection-throttle';

const clock = () => {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};
const admitMany = (admit: () => Admission, n: number) => Array.from({ length: n }, admit);
const okCount = (list: Admission[]) => list.filter((a) => a.ok).length;

describe('connection throttle', () => {
  it('lets a minute’s allowance through at once, then one per 60/n seconds, per address', () => {
    const c = clock();
    const t = createConnectionThrottle({ perMinute: 6, maxPerAddress: null }, c.now);
    const first = admitMany(() => t.admit('a'), 8);
    expect(first.map((a) => a.ok)).toEqual([true, true, true, true, true, true, false, false]);
    expect(first[6]).toEqual({ ok: false, reason: 'rate' });
    // Another address has its own allowance.
    expect(okCount(admitMany(() => t.admit('b'), 6))).toBe(6);
    c.advance(9_999);
    expect(t.admit('a').ok).toBe(false);
    c.advance(1);
    expect(t.admit('a').ok).toBe(true); // 10 s = one token at 6 per minute
    expect(t.admit('a').ok).toBe(false);
    c.advance(10 * 60_000);
    expect(okCount(admitMany(() => t.admit('a'), 10))).toBe(6); // the bucket holds one minute
  });

  it('caps open connections per address; a release frees a place, once', () => {
    const t = createConnectionThrottle({ perMinute: null, maxPerAddress: 3 }, clock().now);
    const open = admitMany(() => t.admit('a'), 3);
    expect(okCount(open)).toBe(3);
    expect(t.admit('a')).toEqual({ ok: false, reason: 'concurrency' });
    expect(t.admit('b').ok).toBe(true);
    const first = open[0]!;
    if (!first.ok) throw new Error('admitted above');
    first.release();
    first.release(); // a second close event must not free a second place
    expect(t.admit('a').ok).toBe(true);
    expect(t.admit('a').ok).toBe(false);
  });

  it('spends a token on a refused attempt: hammering the cap is slowed by the rate', () => {
    const c = clock();
    const t = createConnectionThrottle({ perMinute: 5, maxPerAddress: 1 }, c.now);
    expect(t.admit('a').ok).toBe(true);
    expect(admitMany(() => t.admit('a'), 5).map((a) => (a.ok ? 'ok' : a.reason))).toEqual([
      'concurrency',
      'concurrency',
      'concurrency',
      'concurrency',
      'rate',
    ]);
  });

  it('forgets idle addresses whose allowance is whole again, and only those', () => {
    const c = clock();
    const t = createConnectionThrottle({ perMinute: 60, maxPerAddress: 10 }, c.now);
    const held = t.admit('open');
    const done = t.admit('done');
    if (!done.ok || !held.ok) throw new Error('admitted');
    done.release();
    t.sweep();
    expect(t.size).toBe(2); // 'done' spent a token a moment ago
    c.advance(1000);
    t.sweep();
    expect(t.size).toBe(1); // 'open' still holds a connection
    held.release();
    t.sweep();
    expect(t.size).toBe(0);
  });

  it('with no limits admits everything', () => {
    const t = createConnectionThrottle({ perMinute: null, maxPerAddress: null }, clock().now);
    expect(okCount(admitMany(() => t.admit('a'), 10_000))).toBe(10_000);
  });
});

describe('addressKey', () => {
  it('keeps IPv4 as is, unwraps IPv4-mapped IPv6, and groups IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('x'.repeat(500))).toHaveLength(64);
  });
});
