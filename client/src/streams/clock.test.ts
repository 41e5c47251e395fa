import { describe, expect, it } from 'vitest';
import { ServerClock } from './clock';

describe('ServerClock', () => {
  it('starts at the local clock', () => {
    expect(new ServerClock().now(1000)).toBe(1000);
  });

  it('takes a first guess from hello', () => {
    const clock = new ServerClock();
    clock.hello(10_500, 10_000);
    expect(clock.offsetMs()).toBe(500);
    expect(clock.now(20_000)).toBe(20_500);
  });

  it('measures the offset at the midpoint of a round trip', () => {
    const clock = new ServerClock();
    // Sent at 1000, back at 1200: the server read 5100 at local 1100, so it is 4000 ahead.
    clock.sample({ sentAt: 1000, receivedAt: 1200, serverTime: 5100 });
    expect(clock.offsetMs()).toBe(4000);
  });

  it('prefers the sample with the shortest round trip', () => {
    const clock = new ServerClock();
    clock.sample({ sentAt: 0, receivedAt: 40, serverTime: 1020 }); // rtt 40, offset 1000
    clock.sample({ sentAt: 100, receivedAt: 900, serverTime: 1800 }); // rtt 800, offset 1300
    expect(clock.offsetMs()).toBe(1000);
  });

  it('forgets old samples', () => {
    const clock = new ServerClock(2);
    clock.sample({ sentAt: 0, receivedAt: 10, serverTime: 5 }); // rtt 10, offset 0
    clock.sample({ sentAt: 0, receivedAt: 100, serverTime: 250 }); // rtt 100, offset 200
    clock.sample({ sentAt: 0, receivedAt: 100, serverTime: 350 }); // rtt 100, offset 300
    expect(clock.offsetMs()).toBe(200);
  });

  it('ignores hello once a round trip is known, and impossible samples', () => {
    const clock = new ServerClock();
    clock.sample({ sentAt: 0, receivedAt: 20, serverTime: 110 });
    clock.hello(99_999, 0);
    clock.sample({ sentAt: 50, receivedAt: 40, serverTime: 0 });
    expect(clock.offsetMs()).toBe(100);
  });
});
